-- The people in the user's life as the relations feature last handed them to the character prompt
-- (characters/characterPrompt.ts rebuildCharacterPrompt), kept so a rebuild for another reason still includes them.
alter table characters add column prompt_relations jsonb;

-- Workers look for running jobs whose lease expired (a killed process) on every poll.
create index jobs_lease_idx on jobs (locked_until) where status = 'RUNNING';
