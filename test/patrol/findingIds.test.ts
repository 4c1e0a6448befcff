import { describe, expect, it } from 'vitest';
import { generateFindingId, normalizeFindingKey, sha256Hex } from 'assistant-safety/patrol';

describe('finding ids', () => {
  it('should be the first 8 bytes of SHA-256 over resource:category:key, as the reference computes them', () => {
    expect(generateFindingId('res-1', 'performance', 'high-cpu')).toBe('b2f4df588c6f902d');
    expect(generateFindingId('ai-service', 'reliability', 'ai-patrol-error')).toBe('9cf4e402ad25507d');
    expect(generateFindingId('vm/100', 'backup', 'backup-failed')).toBe('1111a38b1524c70d');
  });

  it('should be deterministic, 16 hex characters, and differ when any part differs', () => {
    const id = generateFindingId('node1', 'capacity', 'disk-high');
    expect(generateFindingId('node1', 'capacity', 'disk-high')).toBe(id);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(
      new Set([
        id,
        generateFindingId('node2', 'capacity', 'disk-high'),
        generateFindingId('node1', 'backup', 'disk-high'),
        generateFindingId('node1', 'capacity', 'cpu-high'),
      ]).size,
    ).toBe(4);
  });

  it('should hash UTF-8 text and multi-block input like any SHA-256', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(sha256Hex('é')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
    expect(sha256Hex('a'.repeat(1000))).toBe('41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3');
  });
});

describe('normalizeFindingKey', () => {
  it.each([
    ['High_Memory', 'memory-high'],
    ['high disk', 'disk-high'],
    ['high-cpu', 'cpu-high'],
    ['docker-health-check-failure', 'health-check-failed'],
    ['container_unhealthy', 'health-check-failed'],
    ['pbs-job-failed', 'pbs-job-failed'],
    ['node-offline', 'node-offline'],
    ['health-check-timeout', 'health-check-timeout'],
    ['  --Disk Full!--  ', 'disk-full'],
    ['', ''],
  ])('%j → %j', (key, expected) => {
    expect(normalizeFindingKey(key)).toBe(expected);
  });
});
