import pino, { type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';

/** Query parameters whose values are secrets in some Cairn API (the seed's token exchange is a GET). */
const SECRET_PARAMETERS = new Set([
  'access_token',
  'refresh_token',
  'session_token',
  'client_secret',
  'code',
  'code_verifier',
  'token',
  'password',
  'key',
  'api_key',
]);

/** The URL with the value of every secret query parameter replaced, for logs. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // keep the raw name
      }
      return eq >= 0 && SECRET_PARAMETERS.has(name.toLowerCase()) ? `${rawName}=[REDACTED]` : pair;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  // The same names at the top level of a log call's object ({ password }) and one level down.
  'authorization',
  'password',
  'client_secret',
  'access_token',
  'refresh_token',
  'session_token',
  'token',
  'code_verifier',
  'secret',
  'key',
  '*.authorization',
  '*.password',
  '*.client_secret',
  '*.access_token',
  '*.refresh_token',
  '*.session_token',
  '*.token',
  '*.code_verifier',
  '*.secret',
  '*.key',
];

interface RequestLike {
  method: string;
  url: string;
  id?: unknown;
  socket?: { remoteAddress?: string | undefined };
  headers?: Record<string, unknown>;
}

export function loggerOptions(level: LoggerOptions['level'] = 'info'): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    serializers: {
      req(req: RequestLike) {
        return {
          id: req.id,
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.socket?.remoteAddress,
        };
      },
    },
  };
}

/**
 * A logger writing JSON lines (one object each, for log collectors), or pretty coloured lines when the
 * destination is a terminal (a person reading `npm start`). Without a destination: standard output.
 */
export function createLogger(
  level: LoggerOptions['level'] = 'info',
  destination?: pino.DestinationStream & { isTTY?: boolean },
): Logger {
  const tty = (destination ?? process.stdout).isTTY === true;
  if (tty) return pino(loggerOptions(level), prettyStream(destination ?? process.stdout));
  return destination ? pino(loggerOptions(level), destination) : pino(loggerOptions(level));
}

function prettyStream(destination: pino.DestinationStream) {
  return pretty({
    destination,
    colorize: true,
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
  });
}

export type { Logger };
