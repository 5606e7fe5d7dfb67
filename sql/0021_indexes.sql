-- Indexes for reads that otherwise scan a whole table.
-- Rows read, or updated by a cascade, through the message or file they point at. Without these each such read
-- scanned the whole table once per message: feedback per reply in "Download my data" (an archive of 100,000
-- messages took a minute instead of seconds), and every deleted message (a conversation, an account) looking for
-- its feedback and for memories that cite it, every deleted file for the messages that carried it.
create index message_feedbacks_message_idx on message_feedbacks (message_id, created_at);
create index memories_source_message_idx on memories (source_message_id);
create index message_files_file_idx on message_files (file_id);

-- The expired archives the periodic housekeeping looks for on every instance (ended sessions have theirs already).
create index data_exports_stored_expiry_idx on data_exports (expires_at) where storage_key is not null;
