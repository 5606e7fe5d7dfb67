/** The longest chat message, in UTF-16 code units (what the request schema and the browser's `length` count). */
export const MESSAGE_MAX_CHARS = 4000

/** From this length on the composer shows the count, so the limit is never a surprise. */
export const MESSAGE_COUNT_FROM = 3600
