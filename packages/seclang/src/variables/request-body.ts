// Body variables: REQUEST_BODY, REQUEST_BODY_LENGTH, REQBODY_PROCESSOR, REQBODY_ERROR,
// REQBODY_ERROR_MSG, REQBODY_PROCESSOR_ERROR, INBOUND_DATA_ERROR.
// Example: SecRule REQBODY_ERROR "!@eq 0" "id:1,phase:2,deny"
import { scalar } from './define.ts';

export const REQUEST_BODY = scalar('REQUEST_BODY', (tx) => tx.requestBody, true);
export const REQUEST_BODY_LENGTH = scalar('REQUEST_BODY_LENGTH', (tx) => String(tx.data.bodyLength));
export const REQBODY_PROCESSOR = scalar('REQBODY_PROCESSOR', (tx) => tx.bodyProcessor, true);
export const REQBODY_ERROR = scalar('REQBODY_ERROR', (tx) => String(tx.bodyError), true);
export const REQBODY_ERROR_MSG = scalar('REQBODY_ERROR_MSG', (tx) => tx.bodyErrorMessage, true);
export const REQBODY_PROCESSOR_ERROR = scalar('REQBODY_PROCESSOR_ERROR', (tx) => String(tx.bodyError), true);
export const INBOUND_DATA_ERROR = scalar('INBOUND_DATA_ERROR', (tx) => String(tx.inboundDataError), true);
