// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../viz/components/ErrorBoundary.js';

afterEach(cleanup);

function Broken(): never {
  throw new Error('the layout engine gave up');
}

describe('error boundary', () => {
  it('should show what went wrong instead of a blank page', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toContain('the layout engine gave up');
    quiet.mockRestore();
  });
});
