-- Onboarding training data, story telling, characters and the durable jobs that build them.

create table training_data (
  user_id uuid primary key references users (id) on delete cascade,
  user_name text,
  original_ideal_self_description text,
  improved_ideal_self_role_name text,
  improved_ideal_self_role_description text,
  preferred_language text not null default 'zh-TW',
  story_completed boolean not null default false,
  updated_at timestamptz not null default now()
);

create table story_entries (
  id bigserial primary key,
  user_id uuid not null references users (id) on delete cascade,
  role text not null check (role in ('GUIDE', 'USER')),
  content text not null,
  created_at timestamptz not null default now()
);
create index story_entries_user_idx on story_entries (user_id, id);

create table characters (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  name text not null,
  is_ready boolean not null default false,
  -- The system prompt the chat uses, and the short "who I am" portrait it is built around.
  prompt text,
  ideal_self_prompt text,
  speaking_style jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index characters_user_idx on characters (user_id, created_at);

create table character_questionnaires (
  id uuid primary key default gen_random_uuid(),
  character_id uuid not null references characters (id) on delete cascade,
  version integer not null,
  questions jsonb not null,
  answers jsonb not null default '{}',
  updated_at timestamptz not null default now(),
  unique (character_id, version)
);

create table character_stage_completions (
  character_id uuid not null references characters (id) on delete cascade,
  stage text not null,
  completed_at timestamptz not null default now(),
  primary key (character_id, stage)
);

-- Durable jobs (DESIGN §7): claimed with FOR UPDATE SKIP LOCKED and a lease, retried with a limit.
create table jobs (
  id uuid primary key default gen_random_uuid(),
  kind text not null,
  user_id uuid not null references users (id) on delete cascade,
  character_id uuid references characters (id) on delete cascade,
  payload jsonb not null default '{}',
  status text not null default 'PENDING' check (status in ('PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED')),
  attempts integer not null default 0,
  max_attempts integer not null default 3,
  last_error text,
  run_after timestamptz not null default now(),
  locked_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index jobs_claim_idx on jobs (status, run_after);
create index jobs_character_idx on jobs (character_id);
create index jobs_user_idx on jobs (user_id);
