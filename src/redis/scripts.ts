import { createHash } from 'node:crypto';

/*
 * The save: one Lua script, so checking the version and writing the session
 * (and its recording entries) is one atomic step on the server. Every key's
 * type is checked before the first write: a key of the wrong type refuses the
 * whole save, never half of it.
 *
 * KEYS[1] session hash, KEYS[2] session stream
 * ARGV[1] expected rev ('' when the session did not exist at load)
 * ARGV[2] new rev (random, chosen by the saver; also the new session's `gen`)
 * ARGV[3] persisted session JSON
 * ARGV[4] idle TTL, ms
 * ARGV[5] stream max length ('0': no stream)
 * ARGV[6] worker name
 * ARGV[7] save time, epoch ms
 * ARGV[8] '1': a refused save answers with the stored fields (a save sent without a load)
 * ARGV[9] number of recording entries n
 * ARGV[10..9+n] the entries, JSON
 *
 * Returns {1, version, gen} when saved; {0, current rev} on a conflict, or with
 * ARGV[8] '1' {0, current rev, v, seq, data, gen, born} (what a load reads; nil
 * where absent, and '' for the rev of no session); {3, key, type found, type
 * expected} for a key of the wrong type.
 *
 * A save that creates the session (no `data` yet) gives it a `gen` (its first
 * rev) and says whether it followed a delete (`born`: 'delete' over a
 * tombstone, 'new' over nothing): how a store tells a deleted session from a
 * lost one.
 */
export const SAVE_SCRIPT = `
local t1 = redis.call('TYPE', KEYS[1]).ok
if t1 ~= 'none' and t1 ~= 'hash' then return {3, KEYS[1], t1, 'hash'} end
if ARGV[5] ~= '0' then
  local t2 = redis.call('TYPE', KEYS[2]).ok
  if t2 ~= 'none' and t2 ~= 'stream' then return {3, KEYS[2], t2, 'stream'} end
end
local rev = redis.call('HGET', KEYS[1], 'rev')
if not rev then rev = '' end
if rev ~= ARGV[1] then
  if ARGV[8] ~= '1' then return {0, rev} end
  local f = redis.call('HMGET', KEYS[1], 'v', 'seq', 'data', 'gen', 'born')
  return {0, rev, f[1], f[2], f[3], f[4], f[5]}
end
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0') + 1
local seq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
local n = tonumber(ARGV[9])
local gen = redis.call('HGET', KEYS[1], 'gen')
if redis.call('HEXISTS', KEYS[1], 'data') == 0 then
  local born = 'new'
  if rev ~= '' then born = 'delete' end
  gen = ARGV[2]
  redis.call('HSET', KEYS[1], 'gen', gen, 'born', born)
end
if not gen then gen = '' end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'v', v, 'seq', seq + n, 'data', ARGV[3], 'at', ARGV[7])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
if ARGV[5] ~= '0' then
  for i = 1, n do
    redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], '*', 'entry', ARGV[9 + i], 'worker', ARGV[6], 'v', v)
  end
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
return {1, v, gen}
`;

export const SAVE_SCRIPT_SHA = createHash('sha1').update(SAVE_SCRIPT).digest('hex');

/*
 * The delete: the session and its stream go, and a tombstone (a hash with a
 * new `rev` and the last `v`, no `data`) stays for the idle TTL, so every
 * store can tell a deleted session (start afresh) from a lost one.
 *
 * KEYS[1] session hash, KEYS[2] session stream
 * ARGV[1] the tombstone's rev, ARGV[2] idle TTL, ms
 *
 * Returns {1} or {3, key, type found, type expected}.
 */
export const DELETE_SCRIPT = `
local t1 = redis.call('TYPE', KEYS[1]).ok
if t1 ~= 'none' and t1 ~= 'hash' then return {3, KEYS[1], t1, 'hash'} end
local v = '0'
if t1 == 'hash' then v = redis.call('HGET', KEYS[1], 'v') or '0' end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('HSET', KEYS[1], 'rev', ARGV[1], 'v', v)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1}
`;

export const DELETE_SCRIPT_SHA = createHash('sha1').update(DELETE_SCRIPT).digest('hex');
