import { createApp } from 'astro/app/entrypoint'

// Pages render whole (not streamed) so islands rendered on the server see the request's language.
export const app = createApp({ streaming: false })
