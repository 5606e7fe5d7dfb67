-- Editable content rows and locale docs. The definitions (fields, types, limits) live in code,
-- api/content/definitions.ts, so validation and the features reading the content ship together.

create table content_rows (
  id uuid primary key default gen_random_uuid(),
  slug text not null,
  -- Names a row the start-up seed wrote, so a restart never adds it twice; null for admin-created rows.
  seed_key text,
  field_values jsonb not null default '{}',
  -- { "ENUS": { field: text }, "ZHTW": {...}, "ZHCN": {...} }
  locale jsonb not null default '{}',
  -- clock_timestamp: rows seeded in one transaction still get distinct, ordered times.
  created_at timestamptz not null default clock_timestamp(),
  updated_at timestamptz not null default now(),
  unique (slug, seed_key)
);
create index content_rows_slug_created_idx on content_rows (slug, created_at);

create table locale_docs (
  id text primary key check (id in ('ENUS', 'ZHTW', 'ZHCN')),
  content jsonb not null,
  updated_at timestamptz not null default now()
);
