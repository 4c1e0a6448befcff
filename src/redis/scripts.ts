import { createHash } from 'node:crypto';

/*
 * The save: one Lua script, so checking the version and writing the session
 * (and its recording entries) is one atomic step on the server.
 *
 * KEYS[1] session hash, KEYS[2] session stream
 * ARGV[1] expected rev ('' when the session did not exist at load)
 * ARGV[2] new rev (random, chosen by the saver)
 * ARGV[3] persisted session JSON
 * ARGV[4] idle TTL, ms
 * ARGV[5] stream max length ('0': no stream)
 * ARGV[6] worker name
 * ARGV[7] save time, epoch ms
 * ARGV[8] number of recording entries n
 * ARGV[9..8+n] the entries, JSON
 *
 * Returns {1, version} when saved, {0, current rev} on a conflict.
 */
export const SAVE_SCRIPT = `
local rev = redis.call('HGET', KEYS[1], 'rev')
if not rev then rev = '' end
if rev ~= ARGV[1] then return {0, rev} end
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0') + 1
local seq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
local n = tonumber(ARGV[8])
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'v', v, 'seq', seq + n, 'data', ARGV[3], 'at', ARGV[7])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
if ARGV[5] ~= '0' then
  for i = 1, n do
    redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], '*', 'entry', ARGV[8 + i], 'worker', ARGV[6], 'v', v)
  end
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
return {1, v}
`;

export const SAVE_SCRIPT_SHA = createHash('sha1').update(SAVE_SCRIPT).digest('hex');
