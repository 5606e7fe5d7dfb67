-- "Download my data": one archive per request, built by a durable job and kept for a day.
create table data_exports (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  job_id uuid references jobs (id) on delete set null,
  status text not null default 'PENDING' check (status in ('PENDING', 'RUNNING', 'READY', 'FAILED')),
  -- What the job has written so far and what it will write in all (conversations and files), for the progress bar.
  done_items integer not null default 0,
  total_items integer not null default 0,
  storage_key text,
  size_bytes bigint,
  created_at timestamptz not null default now(),
  ready_at timestamptz,
  expires_at timestamptz
);
create index data_exports_user_idx on data_exports (user_id, created_at desc);

-- Payment records outlive the account (bookkeeping law): on deletion the order keeps its amounts, dates and
-- ECPay numbers, and no longer names its person.
alter table payment_orders alter column user_id drop not null;
alter table payment_orders drop constraint payment_orders_user_id_fkey;
alter table payment_orders add constraint payment_orders_user_id_fkey foreign key (user_id) references users (id) on delete set null;
alter table payment_notifications drop constraint payment_notifications_user_id_fkey;
alter table payment_notifications add constraint payment_notifications_user_id_fkey foreign key (user_id) references users (id) on delete set null;
