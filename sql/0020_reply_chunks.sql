-- The pieces of a reply as its writer streams them, so a client connected to another instance reads the same
-- deltas in the same order (a notice on the idealself_reply channel says new ones are there). The last chunk of a
-- reply is its outcome (done or error). No foreign key: a failed reply's message is removed, and its readers must
-- still learn why. Chunks are dropped a few minutes after the reply ends.
create table reply_chunks (
  message_id uuid not null,
  seq integer not null,
  kind text not null check (kind in ('delta', 'help', 'done', 'error')),
  body text not null,
  created_at timestamptz not null default now(),
  primary key (message_id, seq)
);
create index reply_chunks_created_idx on reply_chunks (created_at);
