-- Rows read, or updated by a cascade, through the message or file they point at. Without these each such read
-- scanned the whole table once per message: feedback per reply in "Download my data" (an archive of 100,000
-- messages took a minute instead of seconds), and every deleted message (a conversation, an account) looking for
-- its feedback and for memories that cite it, every deleted file for the messages that carried it.
create index message_feedbacks_message_idx on message_feedbacks (message_id, created_at);
create index memories_source_message_idx on memories (source_message_id);
create index message_files_file_idx on message_files (file_id);
