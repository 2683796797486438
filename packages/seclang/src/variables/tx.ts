// TX and the persistent collections (IP, GLOBAL, SESSION, USER, RESOURCE, opened by initcol).
// Example: SecRule TX:ANOMALY_SCORE "@ge %{tx.inbound_anomaly_score_threshold}" "id:1,deny"
import { collection } from './define.ts';

export const TX = collection('TX', (tx) => tx.tx, true);
export const IP = collection('IP', (tx) => tx.collection('ip'), true);
export const GLOBAL = collection('GLOBAL', (tx) => tx.collection('global'), true);
export const SESSION = collection('SESSION', (tx) => tx.collection('session'), true);
export const USER = collection('USER', (tx) => tx.collection('user'), true);
export const RESOURCE = collection('RESOURCE', (tx) => tx.collection('resource'), true);
