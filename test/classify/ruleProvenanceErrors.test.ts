import { describe, expect, it } from 'vitest';
import { ClassifierRulesError, createClassifier } from 'assistant-safety';

/*
 * A provenance field on a rule that can never give its kind of call is a rules error on load,
 * as data (code and path) and in words naming the path: not a flag that silently does nothing.
 */

function issuesOf(rules: unknown) {
  try {
    createClassifier(rules);
  } catch (e) {
    expect(e).toBeInstanceOf(ClassifierRulesError);
    return (e as ClassifierRulesError).issues;
  }
  throw new Error('expected a ClassifierRulesError');
}

describe('rules errors of the provenance fields', () => {
  it('should refuse egress on a write, naming the path', () => {
    expect(issuesOf({ tools: { post_url: { kind: 'write', egress: true, targets: ['url'] } } })).toEqual([
      {
        code: 'invalid_rule',
        path: ['tools', 'post_url', 'egress'],
        message: expect.stringContaining('egress is for a read') as string,
      },
    ]);
    expect(() => createClassifier({ tools: { p: { kind: 'resolve', egress: true } } })).toThrow(
      /tools\.p\.egress: egress is for a read/,
    );
  });

  it('should refuse discovers on a write, and allow it on a resolve', () => {
    expect(() => createClassifier({ tools: { upload: { kind: 'write', discovers: [{ path: 'id' }] } } })).toThrow(
      /tools\.upload\.discovers: discovers is for a read or a resolve/,
    );
    expect(() =>
      createClassifier({ tools: { find_vm: { kind: 'resolve', discovers: [{ path: 'id' }] } } }),
    ).not.toThrow();
  });

  it('should refuse creates on a read, created without creates, and creates on an argument rule', () => {
    expect(issuesOf({ tools: { get_doc: { kind: 'read', creates: true } } })[0]?.path).toEqual([
      'tools',
      'get_doc',
      'creates',
    ]);
    expect(() => createClassifier({ tools: { mk: { kind: 'write', created: ['path'] } } })).toThrow(
      /tools\.mk\.created: created .* needs creates: true/,
    );
    expect(() =>
      createClassifier({
        tools: {
          files: { arg: 'action', values: { create: 'write', delete: 'write' }, default: 'write', creates: true },
        },
      }),
    ).toThrow(/tools\.files\.creates: creates is for a tool that always creates/);
  });

  it('should refuse an argument rule whose values never give the kind a field is for', () => {
    const neverRead = { arg: 'method', values: { post: 'write' }, default: 'write', egress: true };
    expect(() => createClassifier({ tools: { http: neverRead } })).toThrow(
      /tools\.http\.egress: .*its argument "method" never makes a call a read/,
    );
    const neverFinds = { arg: 'action', values: { stop: 'write' }, default: 'write', discovers: [{ path: 'id' }] };
    expect(() => createClassifier({ tools: { vm: neverFinds } })).toThrow(/tools\.vm\.discovers/);
    const missingReads = { ...neverFinds, missing: 'read' };
    expect(() => createClassifier({ tools: { vm: missingReads } })).not.toThrow();
  });

  it('should refuse optionalTargets without targets', () => {
    expect(() => createClassifier({ tools: { commit: { kind: 'write', optionalTargets: true } } })).toThrow(
      /tools\.commit\.optionalTargets: .* needs targets/,
    );
  });

  it('should check the shape of the new fields, listing them among the allowed keys', () => {
    expect(() => createClassifier({ tools: { t: { kind: 'read', discovers: [] } } })).toThrow(/tools\.t\.discovers/);
    expect(() => createClassifier({ tools: { t: { kind: 'read', discovers: [{ path: 'id', field: 'x' }] } } })).toThrow(
      ClassifierRulesError,
    );
    expect(() => createClassifier({ tools: { t: { kind: 'read', egress: 'yes' } } })).toThrow(
      /tools\.t\.egress: expected boolean/,
    );
    expect(() => createClassifier({ tools: { t: { kind: 'write', creates: true, create: ['x'] } } })).toThrow(
      /allowed: .*optionalTargets.*discovers, creates, created, egress/,
    );
  });
});
