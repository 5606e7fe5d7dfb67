-- Accounts, sign-in identities, sessions, password resets and uploaded files.

create table users (
  id uuid primary key default gen_random_uuid(),
  email text not null unique,
  name text not null default '',
  role text not null default 'REGULAR' check (role in ('ADMIN', 'REGULAR', 'DEVELOPER')),
  password_hash text,
  profile_image_url text,
  oauth_profile_url text,
  subscription_type text not null default 'FREEMIUM' check (subscription_type in ('FREEMIUM', 'PREMIUM')),
  subscription_auto_renew boolean not null default false,
  subscription_expires_at timestamptz,
  subscription_provider text check (subscription_provider in ('APPLE', 'STRIPE', 'ECPAY')),
  message_limit integer not null default 100 check (message_limit >= 0),
  message_count integer not null default 0 check (message_count >= 0),
  message_reset_at timestamptz not null default now(),
  onboarding_current_step text,
  onboarding_completed boolean not null default false,
  is_suspended boolean not null default false,
  is_email_verified boolean not null default false,
  is_linked_to_oauth_account boolean not null default false,
  geo_latitude double precision,
  geo_longitude double precision,
  geo_updated_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_active_at timestamptz
);
create index users_created_at_idx on users (created_at);

create table user_identities (
  provider text not null,
  subject text not null,
  user_id uuid not null references users (id) on delete cascade,
  email text,
  created_at timestamptz not null default now(),
  primary key (provider, subject)
);
create index user_identities_user_idx on user_identities (user_id);

create table sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  user_agent text,
  ip text
);
create index sessions_user_idx on sessions (user_id);

create table password_reset_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  token_hash text not null unique,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index password_reset_tokens_user_idx on password_reset_tokens (user_id);

create table files (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  storage_key text not null,
  mime_type text not null,
  size_bytes integer not null,
  original_name text,
  created_at timestamptz not null default now()
);
create index files_user_idx on files (user_id);

-- Mail written instead of sent when no SMTP server is configured (development only).
create table mail_outbox (
  id bigserial primary key,
  to_address text not null,
  subject text not null,
  body_text text not null,
  body_html text,
  created_at timestamptz not null default now()
);

-- Events from the app's track() when no analytics service is configured; the admin dashboard charts them.
create table analytics_events (
  id bigserial primary key,
  user_id uuid references users (id) on delete cascade,
  event text not null,
  props jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index analytics_events_created_idx on analytics_events (created_at);
create index analytics_events_user_idx on analytics_events (user_id);
