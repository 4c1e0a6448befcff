import { formatPath, type MachineIssue } from 'assistant-safety';

/** Why the edited machine is malformed, one line per problem with its path (as the loader reports it). */
export function ValidationIssues({ issues }: { issues: readonly MachineIssue[] }) {
  return (
    <section className="edit-issues" data-testid="validation-issues">
      <h3>The machine is malformed: it cannot be checked or saved</h3>
      <ul>
        {issues.map((issue, i) => (
          <li key={i} data-testid="validation-issue">
            <code>{formatPath(issue.path) || '(root)'}</code>: {issue.message}
          </li>
        ))}
      </ul>
    </section>
  );
}
