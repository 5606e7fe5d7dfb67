-- Chat-history imports (spec §2 "Upload chat history", §4 "Chat-history import") and the relationship graph
-- (spec §3 Relationship graph) they propose and the person confirms.

-- False from the moment chat history is uploaded until its analysis has written the graph (spec §4: the editor
-- polls `isReady`).
alter table characters add column relations_ready boolean not null default false;

create table chat_history_imports (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  character_id uuid not null references characters (id) on delete cascade,
  -- The author name the person picked as their own ("Which one is you?").
  user_name text not null,
  status text not null default 'PENDING'
    check (status in ('PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'SUPERSEDED')),
  file_count integer not null,
  total_bytes bigint not null,
  -- Messages with an author across the files, and how many of them the person wrote.
  message_count integer not null,
  user_message_count integer not null,
  people_count integer,
  -- The measured speaking-style profile (statistics, samples, summary) of this import.
  speaking_style jsonb,
  error text,
  job_id uuid references jobs (id) on delete set null,
  -- clock_timestamp: two uploads in one transaction still order, and the newest import is the one that counts.
  created_at timestamptz not null default clock_timestamp(),
  started_at timestamptz,
  finished_at timestamptz
);
create index chat_history_imports_character_idx on chat_history_imports (character_id, created_at);
create index chat_history_imports_user_idx on chat_history_imports (user_id);
create index chat_history_imports_created_idx on chat_history_imports (created_at);

create table chat_history_files (
  id uuid primary key default gen_random_uuid(),
  import_id uuid not null references chat_history_imports (id) on delete cascade,
  position integer not null,
  original_name text not null,
  -- Under the user's id, so deleting the account removes it with everything else stored for them. Null once the
  -- export has been removed from storage (after its analysis finished).
  storage_key text,
  size_bytes bigint not null,
  platform text not null check (platform in ('line', 'whatsapp')),
  message_count integer not null,
  unique (import_id, position)
);

-- People in the user's life for one character, and the user themself (is_self, exactly one per character).
create table relation_nodes (
  id uuid primary key default gen_random_uuid(),
  character_id uuid not null references characters (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  name text not null,
  is_self boolean not null default false,
  -- What the chats showed: their messages, the user's messages to them, their latest message (export wall-clock).
  message_count integer not null default 0,
  user_message_count integer not null default 0,
  last_message_at timestamp,
  position integer not null default 0
);
create unique index relation_nodes_self_idx on relation_nodes (character_id) where is_self;
create unique index relation_nodes_name_idx on relation_nodes (character_id, name) where not is_self;
create index relation_nodes_user_idx on relation_nodes (user_id);

-- One relationship per person, from the user's node to theirs. `confirmed` once the person saved the graph.
create table relation_edges (
  id uuid primary key default gen_random_uuid(),
  character_id uuid not null references characters (id) on delete cascade,
  source_id uuid not null references relation_nodes (id) on delete cascade,
  target_id uuid not null unique references relation_nodes (id) on delete cascade,
  types text[] not null check (cardinality(types) between 1 and 16),
  closeness smallint not null check (closeness between 1 and 5),
  confirmed boolean not null default false,
  updated_at timestamptz not null default now()
);
create index relation_edges_character_idx on relation_edges (character_id);
