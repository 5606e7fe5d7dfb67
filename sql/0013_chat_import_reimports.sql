-- Re-imports of chat history: an upload sent twice while its import is on its way starts one analysis.
-- The digest covers the chosen name and every file's bytes.
alter table chat_history_imports add column content_digest text;
create index chat_history_imports_digest_idx on chat_history_imports (character_id, content_digest);

-- The person's own messages of an import (the most recent 5,000, never anyone else's), kept once the exports are
-- removed so that the next import measures the speaking style on them too: the style sample grows with each import.
alter table chat_history_imports add column own_messages jsonb;
