import { createHash } from 'node:crypto';
import type { Clock } from '@cairn/kit';
import { createClient } from 'redis';
import { type RateOptions, refillMs } from './rate-limit.ts';
import type { SharedBuckets } from './rate-limit-lease.ts';

// The same bucket as takeToken (rate-limit.ts), run atomically in Redis, taking tokens as takeFromBucket
// (rate-limit-lease.ts) says after adding back `give` unspent ones. ARGV: burst, rate, now (ms), ttl (ms), want,
// ahead, give. The key expires once the bucket would be full again. Tokens go back as text: Lua numbers become
// integers.
const SCRIPT = `local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local want = tonumber(ARGV[5])
local ahead = tonumber(ARGV[6])
local give = tonumber(ARGV[7])
local b = redis.call('HMGET', KEYS[1], 't', 'a')
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + give + math.max(0, now - at) / 1000 * rate)
local granted = math.min(want, math.floor(tokens))
granted = granted + math.min(ahead, math.max(0, math.floor(tokens - granted - burst / 2)))
tokens = tokens - granted
redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens), 'a', string.format('%d', math.max(at, now)))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {granted, string.format('%.17g', tokens)}`;
const SHA1 = createHash('sha1').update(SCRIPT).digest('hex');

/**
 * Token buckets in Redis (REDIS_URL), keys `<prefix><credential id>`, shared by every process using it. The
 * client connects in the background and reconnects on its own; until it is connected a call fails at once
 * (no offline queue), which withLocalFallback answers from this process's buckets. So Redis down does not
 * stop Cairn from starting or serving.
 */
export function createRedisBuckets(
  url: string,
  clock: Clock,
  options: RateOptions & { keyPrefix?: string },
): SharedBuckets {
  const client = createClient({ url, disableOfflineQueue: true });
  client.on('error', () => {}); // reported by the call that fails (withLocalFallback)
  client.connect().catch(() => {});
  const prefix = options.keyPrefix ?? 'cairn:places:rate:';
  const ttl = String(refillMs(options) + 1000);

  async function run(key: string, args: string[]): Promise<unknown> {
    try {
      return await client.evalSha(SHA1, { keys: [key], arguments: args });
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return client.eval(SCRIPT, { keys: [key], arguments: args });
    }
  }

  return {
    store: 'redis',
    async takeUpTo(credentialId, { want, ahead, giveBack }) {
      const reply = (await run(prefix + credentialId, [
        String(options.burst),
        String(options.rate),
        String(clock.nowMs()),
        ttl,
        String(want),
        String(ahead),
        String(giveBack),
      ])) as [number, string];
      return { granted: reply[0], tokens: Number(reply[1]) };
    },
    async close() {
      if (client.isReady) await client.close();
      else if (client.isOpen) client.destroy();
    },
  };
}
