-- The shipped background track is now Opus (about 110 KB) instead of a 768 KB WAV, which is no longer served.
-- Rows that still name the old file move to the new one; a track an admin set stays as it is.
update content_rows
set field_values = jsonb_set(field_values, '{url}', to_jsonb('/audio/ideal-self-ambient.opus'::text)),
    updated_at = now()
where slug = 'background-music' and field_values ->> 'url' = '/audio/ideal-self-ambient.wav';
