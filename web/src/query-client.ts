import { QueryClient } from '@tanstack/react-query';
import { ApiFailure } from './api.js';

/** The app's one query cache: the pages read it, and the routes fill it while a page's code loads. */
export const queryClient = new QueryClient({
  defaultOptions: {
    // A refusal (4xx) does not get better by asking again.
    queries: { retry: (count, error) => !(error instanceof ApiFailure && error.status < 500) && count < 2, refetchOnWindowFocus: false },
  },
});
