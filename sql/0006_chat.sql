-- Conversations with a character, their messages (with attached images) and feedback on replies.

create table conversations (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  character_id uuid references characters (id) on delete set null,
  name text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index conversations_user_idx on conversations (user_id, created_at);

create table messages (
  id uuid primary key default gen_random_uuid(),
  conversation_id uuid not null references conversations (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  role text not null check (role in ('USER', 'ASSISTANT')),
  text text not null default '',
  -- An assistant reply is PENDING while the model writes it; COMPLETE once saved.
  status text not null default 'COMPLETE' check (status in ('PENDING', 'COMPLETE')),
  created_at timestamptz not null default clock_timestamp()
);
create index messages_conversation_idx on messages (conversation_id, created_at, id);
create index messages_user_idx on messages (user_id, created_at);

create table message_files (
  message_id uuid not null references messages (id) on delete cascade,
  file_id uuid not null references files (id) on delete cascade,
  position integer not null,
  primary key (message_id, file_id)
);

create table message_feedbacks (
  id uuid primary key default gen_random_uuid(),
  message_id uuid not null references messages (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  feedback_text text not null,
  created_at timestamptz not null default now()
);
create index message_feedbacks_user_idx on message_feedbacks (user_id);
