-- ECPay checkouts and every notification ECPay (or anyone) sends about them.

-- One row per checkout form handed to a browser. Notifications are checked against it (amount,
-- owner, plan), so it is written before the form leaves the server.
create table payment_orders (
  id uuid primary key default gen_random_uuid(),
  merchant_trade_no text not null unique,
  user_id uuid not null references users (id) on delete cascade,
  plan_id text not null,
  kind text not null check (kind in ('one-time', 'subscription')),
  amount_twd integer not null check (amount_twd > 0),
  period_type text not null check (period_type in ('M', 'Y')),
  status text not null default 'pending' check (status in ('pending', 'paid', 'failed', 'cancelled')),
  ecpay_trade_no text,
  -- Charges already turned into Premium time: the first one plus every periodic one. ECPay's
  -- TotalSuccessTimes is compared with it, so a lost or repeated notice neither skips nor repeats a period.
  periods_paid integer not null default 0 check (periods_paid >= 0),
  created_at timestamptz not null default now(),
  paid_at timestamptz,
  cancelled_at timestamptz
);
create index payment_orders_user_idx on payment_orders (user_id, created_at desc);

-- Every POST to the ReturnURL, PeriodReturnURL and OrderResultURL endpoints, verified or not, as
-- received, with what was done about it. charge_key is set on the one notification that settled a
-- charge; ECPay's resends of it find the key taken and change nothing.
create table payment_notifications (
  id bigserial primary key,
  kind text not null check (kind in ('return', 'period', 'order-result')),
  merchant_trade_no text,
  user_id uuid references users (id) on delete cascade,
  fields jsonb not null,
  -- CheckMacValue and MerchantID check out (ECPay sent it); says nothing of whether it was applied.
  verified boolean not null,
  outcome text not null,
  charge_key text unique,
  received_at timestamptz not null default now()
);
create index payment_notifications_trade_idx on payment_notifications (merchant_trade_no);
create index payment_notifications_user_idx on payment_notifications (user_id);
