// @vitest-environment jsdom
import { Component, type ReactNode } from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { createLogger } from '@/lib/logger';

const navigation = vi.hoisted(() => ({ pathname: '/gallery', refresh: vi.fn() }));
vi.mock('next/navigation', async (importOriginal) => ({
  ...(await importOriginal<typeof import('next/navigation')>()),
  usePathname: () => navigation.pathname,
  useRouter: () => ({ refresh: navigation.refresh }),
}));

let broken = true;
function GalleryGrid() {
  if (broken) throw new Error('items is undefined');
  return <p>Gallery content</p>;
}

function setup(children: ReactNode = <GalleryGrid />) {
  const send = vi.fn(async (_url: string, _body: string): Promise<unknown> => undefined);
  const logger = createLogger({ endpoint: '/api/error-logs', send, console: { info: vi.fn(), warn: vi.fn(), error: vi.fn() } });
  const view = render(<ErrorBoundary logger={logger}>{children}</ErrorBoundary>);
  const sent = () => send.mock.calls.map(([, body]) => JSON.parse(body) as Record<string, unknown>);
  return { ...view, logger, sent };
}

beforeEach(() => {
  broken = true;
  navigation.pathname = '/gallery';
  window.history.replaceState(null, '', '/gallery');
  // React reports caught render errors on the console.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(cleanup);

describe('ErrorBoundary', () => {
  it('renders its children when nothing fails', () => {
    broken = false;
    setup();
    expect(screen.getByText('Gallery content')).toBeInTheDocument();
  });

  it("shows the error boundary's fallback after a render failure and logs one critical entry", () => {
    const { sent } = setup();
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toHaveFocus();
    expect(screen.getByText('Our team has been notified. Please try again later.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();

    expect(sent()).toHaveLength(1);
    const entry = sent()[0]!;
    expect(entry).toMatchObject({
      application: 'homecare-web',
      level: 'critical',
      source: 'error-boundary',
      category: 'client',
      path: '/gallery',
      message: 'Render failure: items is undefined',
      stack: expect.stringContaining('items is undefined'),
    });
    expect((entry.metadata as { componentStack: string }).componentStack).toContain('GalleryGrid');
  });

  it('Try Again re-renders the content once the cause has gone', () => {
    setup();
    broken = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('Gallery content')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();
    expect(navigation.refresh).toHaveBeenCalled();
  });

  it('clears the failure when the visitor navigates to another page', () => {
    const { rerender, logger } = setup();
    broken = false;
    navigation.pathname = '/about';
    act(() =>
      rerender(
        <ErrorBoundary logger={logger}>
          <GalleryGrid />
        </ErrorBoundary>,
      ),
    );
    expect(screen.getByText('Gallery content')).toBeInTheDocument();
  });

  it("lets Next's own control-flow errors (notFound) pass through", async () => {
    const { notFound } = await import('next/navigation');
    function Missing() {
      return notFound();
    }
    class Outer extends Component<{ children: ReactNode }, { caught: string | null }> {
      state = { caught: null as string | null };
      static getDerivedStateFromError(error: unknown) {
        return { caught: error instanceof Error ? error.message : String(error) };
      }
      render() {
        return this.state.caught ? <p>outer caught</p> : this.props.children;
      }
    }
    const send = vi.fn(async (_url: string, _body: string): Promise<unknown> => undefined);
    const logger = createLogger({ endpoint: '/api/error-logs', send, console: { info: vi.fn(), warn: vi.fn(), error: vi.fn() } });
    render(
      <Outer>
        <ErrorBoundary logger={logger}>
          <Missing />
        </ErrorBoundary>
      </Outer>,
    );
    expect(screen.getByText('outer caught')).toBeInTheDocument();
    expect(send).not.toHaveBeenCalled();
  });
});
