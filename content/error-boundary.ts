/** What the error boundary shows in place of a page that failed to render, verbatim. */
export const errorBoundaryText = {
  heading: 'Something went wrong',
  body: 'Our team has been notified. Please try again later.',
  retry: 'Try Again',
} as const;

/** The `source` of the critical entry the error boundaries log. */
export const ERROR_BOUNDARY_SOURCE = 'error-boundary';
