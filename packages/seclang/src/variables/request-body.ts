// Body variables: REQUEST_BODY, REQUEST_BODY_LENGTH, REQBODY_PROCESSOR, REQBODY_ERROR,
// REQBODY_ERROR_MSG, REQBODY_PROCESSOR_ERROR, INBOUND_DATA_ERROR.
// Example: SecRule REQBODY_ERROR "!@eq 0" "id:1,phase:2,deny"
import { scalar } from './define.ts';

// Only REQBODY_PROCESSOR changes while a phase runs (ctl:requestBodyProcessor in phase 1); the
// others are set by the body processor between phases 1 and 2, so their resolved target lists
// may be cached for the rest of the phase.
export const REQUEST_BODY = scalar('REQUEST_BODY', (tx) => tx.requestBody);
export const REQUEST_BODY_LENGTH = scalar('REQUEST_BODY_LENGTH', (tx) => String(tx.data.bodyLength));
export const REQBODY_PROCESSOR = scalar('REQBODY_PROCESSOR', (tx) => tx.bodyProcessor, true);
export const REQBODY_ERROR = scalar('REQBODY_ERROR', (tx) => String(tx.bodyError));
export const REQBODY_ERROR_MSG = scalar('REQBODY_ERROR_MSG', (tx) => tx.bodyErrorMessage);
export const REQBODY_PROCESSOR_ERROR = scalar('REQBODY_PROCESSOR_ERROR', (tx) => String(tx.bodyError));
export const INBOUND_DATA_ERROR = scalar('INBOUND_DATA_ERROR', (tx) => String(tx.inboundDataError));
