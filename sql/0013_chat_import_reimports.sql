-- Re-imports of chat history: an upload sent twice while its import is on its way starts one analysis.
-- The digest covers the chosen name and every file's bytes.
alter table chat_history_imports add column content_digest text;
create index chat_history_imports_digest_idx on chat_history_imports (character_id, content_digest);
