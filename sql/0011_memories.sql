-- What the companion remembers about the person (facts, people, plans, preferences, events), which memories and
-- people each reply drew on, and the earlier versions of a regenerated reply.

create table memories (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  kind text not null check (kind in ('fact', 'person', 'plan', 'preference', 'event')),
  -- In the person's own language.
  text text not null check (length(text) between 1 and 500),
  -- A short topic for the reply's chip ("marathon", "Mei").
  label text not null check (length(label) between 1 and 60),
  -- The person this is about, as said ("Mei"), and their node in a relationship graph when one matches.
  person_name text,
  relation_node_id uuid references relation_nodes (id) on delete set null,
  source_message_id uuid references messages (id) on delete set null,
  -- The text as the search sees it: Chinese runs as overlapping character pairs (the built-in parsers do not split
  -- Chinese words), everything else as written; the english configuration stems it and drops stop words.
  search_text text not null,
  search_vector tsvector generated always as (to_tsvector('english', search_text)) stored,
  created_at timestamptz not null default clock_timestamp(),
  updated_at timestamptz not null default clock_timestamp()
);
create index memories_user_idx on memories (user_id, updated_at desc);
create index memories_search_idx on memories using gin (search_vector);
create index memories_person_idx on memories (user_id, lower(person_name)) where person_name is not null;

-- What went into a reply's prompt: {memories: [{id, label, kind}], people: [{id, name, types}]}; kept as it was
-- even after a memory is edited or forgotten, so history shows what the reply really drew on.
alter table messages add column sources jsonb;
-- A regenerated reply's current version number (1 for the first answer).
alter table messages add column version integer not null default 1;

create table message_versions (
  message_id uuid not null references messages (id) on delete cascade,
  version integer not null,
  text text not null,
  -- The help block that version opened with, if it needed one (messages.help_text).
  help_text text,
  sources jsonb,
  created_at timestamptz not null,
  primary key (message_id, version)
);

-- Feedback is given on the version the person was reading.
alter table message_feedbacks add column version integer not null default 1;

-- Embeddings of memories for recall by meaning, where the database has pgvector (PGlite always does; PostgreSQL
-- when the extension is installed and this role may create it). Without it recall uses text search alone.
-- `text` is what was embedded: an edited memory's old vector no longer counts. No dimension is fixed, so any
-- embedding model fits; vectors of another model are ignored by recall.
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'vector') then
    begin
      create extension if not exists vector;
    exception when insufficient_privilege then
      raise notice 'pgvector is available but this role cannot create it; memory recall uses text search only';
    end;
  end if;
  if exists (select 1 from pg_extension where extname = 'vector') then
    execute $sql$
      create table memory_embeddings (
        memory_id uuid primary key references memories (id) on delete cascade,
        user_id uuid not null references users (id) on delete cascade,
        model text not null,
        text text not null,
        embedding vector not null
      )$sql$;
    execute 'create index memory_embeddings_user_idx on memory_embeddings (user_id, model)';
  end if;
end
$$;
