import { useEffect, useRef } from 'react';

/** One event of the live stream (docs/events-and-webhooks.md, *Live events*): the frame's `data`. */
export interface LiveEvent {
  event_id: string;
  type: string;
  occurred_at: string;
  payload: Record<string, unknown>;
}

/** The tenant's live events: `GET /v1/stream/events`, same-origin, authenticated by the session cookie. */
export const EVENTS_URL = '/v1/stream/events';

/**
 * Calls `onEvent` for each event the stream brings while the screen is shown, and closes the stream
 * when it goes. An `EventSource` reconnects by itself after a cut and sends the last `id:` it saw as
 * `Last-Event-ID`, so the server goes on with exactly what followed (none twice, none skipped); a
 * refusal before the stream starts (401, 403 without `events.read`) ends it for good, which leaves
 * the screen as it was: live updates are a convenience, never what the screen needs to work.
 */
export function useEvents(onEvent: (event: LiveEvent) => void): void {
  const latest = useRef(onEvent);
  latest.current = onEvent;
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(EVENTS_URL);
    source.onmessage = (message: MessageEvent<string>) => {
      let event: LiveEvent;
      try {
        event = JSON.parse(message.data) as LiveEvent;
      } catch {
        return; // not an event frame
      }
      if (typeof event?.type === 'string') latest.current(event);
    };
    return () => source.close();
  }, []);
}
