// track(event, props): one call for every event the product logs. The server stores it, or forwards it to
// PostHog when a key is configured, so the browser needs no analytics script.
export function track(event: string, props: Record<string, unknown> = {}) {
  const body = JSON.stringify({ event, props: { ...props, path: location.pathname } })
  try {
    if (navigator.sendBeacon?.('/api/v1/analytics/events', new Blob([body], { type: 'application/json' }))) return
  } catch {}
  void fetch('/api/v1/analytics/events', { method: 'POST', headers: { 'content-type': 'application/json' }, body, keepalive: true }).catch(() => {})
}
