import { describe, expect, it } from 'vitest';
import {
  createSafetyMachine,
  parseMachineDefinition,
  replayRecording,
  safetyMachine,
  safetyMachineDefinition,
} from '../../src/index.js';
import { Analyzer } from '../../viz/model/Analyzer.js';
import { bigRecording, blockedRecording, FIRST_BLOCKED, tamperedRecording } from './fixtures.js';

const def = parseMachineDefinition(safetyMachineDefinition);

describe('analyzer (the app replay)', () => {
  it('should find the same divergences as the core replayRecording', () => {
    const entries = tamperedRecording();
    const analyzer = new Analyzer(def, safetyMachine);
    analyzer.push(entries);
    expect(analyzer.divergences).toEqual(replayRecording(entries).divergences);
    expect(analyzer.divergencesAt(FIRST_BLOCKED).map((d) => d.field)).toEqual(['decision', 'reasonCode']);
  });

  it('should find the divergences of a recording against an edited machine', () => {
    const edited = structuredClone(safetyMachineDefinition) as typeof safetyMachineDefinition;
    // An unsafe edit: a second write is no longer blocked while verifying.
    (edited.states.VERIFYING.on as Record<string, unknown>)['BEGIN_CALL'] = [
      { guard: 'isWrite', actions: ['beginCall'], description: 'edited' },
    ];
    const machine = createSafetyMachine(edited);
    const entries = blockedRecording();
    const analyzer = new Analyzer(parseMachineDefinition(edited), machine);
    analyzer.push(entries);
    expect(analyzer.divergences).toEqual(replayRecording(entries, { machine }).divergences);
    expect(analyzer.divergencesAt(FIRST_BLOCKED).length).toBeGreaterThan(0);
  });

  it('should give the same answers fed in slices as in one go', () => {
    const entries = [...bigRecording(500), ...tamperedRecording()];
    const whole = new Analyzer(def, safetyMachine);
    whole.push(entries);
    const sliced = new Analyzer(def, safetyMachine);
    for (let i = 0; i < entries.length; i += 37) sliced.push(entries, Math.min(entries.length, i + 37));
    expect(sliced.done).toBe(entries.length);
    expect(sliced.divergences).toEqual(whole.divergences);
    for (let i = 0; i < entries.length; i++) expect(sliced.detailAt(i)?.transition).toBe(whole.detailAt(i)?.transition);
  });

  it('should name the transition each call took, blocked attempts included', () => {
    const entries = blockedRecording();
    const analyzer = new Analyzer(def, safetyMachine);
    analyzer.push(entries);
    const taken = entries.map((_, i) => analyzer.detailAt(i)?.transition);
    expect(taken).toEqual([
      undefined, // create
      '*.BEGIN_CALL[1]', // resolve begins (root level)
      'RESOLVING.TOOL_SUCCEEDED[0]', // -> READING
      'READING.BEGIN_CALL[3]', // write -> WRITING
      '*.TOOL_SUCCEEDED[3]', // write lands -> VERIFYING
      'VERIFYING.BEGIN_CALL[3]', // blocked: UNVERIFIED_WRITE
      'VERIFYING.CHECK_FINAL_ANSWER[2]', // blocked: FINAL_ANSWER_UNVERIFIED
      '*.BEGIN_CALL[1]', // read begins
      'VERIFYING.TOOL_SUCCEEDED[0]', // verifying read
      'VERIFYING.COMPLETE_VERIFICATION[0]', // -> READING
      undefined, // final answer in READING: no transition handles it
    ]);
  });

  it('should take a transition that leads where the recording says, at every step of a long recording', () => {
    const entries = bigRecording(2000);
    const analyzer = new Analyzer(def, safetyMachine);
    analyzer.push(entries);
    const graphTargets = (id: string) => {
      const [source, rest] = [id.slice(0, id.indexOf('.')), id.slice(id.indexOf('.') + 1)];
      const event = rest.slice(0, rest.indexOf('['));
      const index = Number(rest.slice(rest.indexOf('[') + 1, -1));
      const t = (source === '*' ? def.on : def.states[source]!.on)![event]![index]!;
      return t.target;
    };
    entries.forEach((e, i) => {
      const id = analyzer.detailAt(i)?.transition;
      if (!id) return;
      expect(graphTargets(id) ?? e.before).toBe(e.after);
    });
    expect(analyzer.divergences).toEqual([]);
  });
});
