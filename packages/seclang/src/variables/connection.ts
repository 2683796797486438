// Connection and server variables: REMOTE_ADDR, REMOTE_PORT, REMOTE_HOST, SERVER_ADDR,
// SERVER_NAME, SERVER_PORT, UNIQUE_ID, DURATION (µs since the transaction started), TIME*.
// Example: SecRule REMOTE_ADDR "@ipMatch 127.0.0.1" "id:1"
import { scalar } from './define.ts';

const pad = (n: number) => String(n).padStart(2, '0');

export const REMOTE_ADDR = scalar('REMOTE_ADDR', (tx) => tx.data.remoteAddr);
export const REMOTE_HOST = scalar('REMOTE_HOST', (tx) => tx.data.remoteAddr);
export const REMOTE_PORT = scalar('REMOTE_PORT', (tx) => String(tx.data.remotePort));
export const SERVER_ADDR = scalar('SERVER_ADDR', () => '127.0.0.1');
export const SERVER_NAME = scalar('SERVER_NAME', (tx) => tx.data.headers.byKey('host')[0]?.value ?? '');
export const SERVER_PORT = scalar('SERVER_PORT', () => '80');
export const UNIQUE_ID = scalar('UNIQUE_ID', (tx) => tx.uniqueId);
export const DURATION = scalar(
  'DURATION',
  (tx) => String(Math.round((performance.now() - tx.startedAt) * 1000)),
  true,
);
export const TIME_EPOCH = scalar('TIME_EPOCH', () => String(Math.floor(Date.now() / 1000)), true);
export const TIME = scalar(
  'TIME',
  () => {
    const d = new Date();
    return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  },
  true,
);
