import { publicApi, retryOnce } from './api';
import { choiceKey, periodOf, type Choice, type Quote } from './types';

/** The quote query of one room type for a choice: shared by the room list and the details step's summary. */
export function quoteQuery(slug: string, roomTypeId: string, choice: Choice) {
  return {
    queryKey: ['quote', slug, roomTypeId, choiceKey(choice)],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      publicApi<Quote>(`/facilities/${encodeURIComponent(slug)}/quotes`, { roomTypeId, ...periodOf(choice) }, signal),
    staleTime: 30_000,
    retry: retryOnce,
  };
}
