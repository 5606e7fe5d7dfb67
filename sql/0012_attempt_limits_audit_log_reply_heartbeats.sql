-- Counts of sign-in attempts and failures per key (account, source address, or both) in fixed windows, kept in
-- the database so every API process sharing it enforces the same limits.
create table attempt_counts (
  key text primary key,
  count integer not null,
  window_ends_at timestamptz not null
);
create index attempt_counts_window_idx on attempt_counts (window_ends_at);

-- What staff did to an account that changes how it signs in (who, what, when; never message content).
create table audit_log (
  id uuid primary key default gen_random_uuid(),
  actor_id uuid references users (id) on delete set null,
  actor_email text not null,
  subject_id uuid references users (id) on delete set null,
  subject_email text not null,
  action text not null,
  created_at timestamptz not null default now()
);
create index audit_log_created_idx on audit_log (created_at desc, id desc);

-- The process writing a PENDING reply marks it alive every few seconds; a reply whose marks stop (the process
-- was killed mid-stream) is failed and refunded by whichever process sweeps next.
create table reply_heartbeats (
  message_id uuid primary key references messages (id) on delete cascade,
  beat_at timestamptz not null default now()
);
