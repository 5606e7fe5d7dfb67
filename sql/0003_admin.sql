-- Indexes for the admin users table and dashboard. The list orders by the chosen column and then id, so
-- each sort index ends with id and a page deep in the list is read in order instead of sorted.

create index users_name_idx on users (lower(name), id);
create index users_subscription_idx on users (subscription_type, id);
-- Filtering by role with the default newest-first order.
create index users_role_created_idx on users (role, created_at);
create index sessions_created_idx on sessions (created_at);
