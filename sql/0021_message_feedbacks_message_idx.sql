-- Feedback is read by the message it is about (a reply's feedback in "Download my data", and the cascade when a
-- message or an account is deleted); without this index each of those reads scanned every feedback row, which made
-- an archive of 100,000 messages take a minute instead of seconds.
create index message_feedbacks_message_idx on message_feedbacks (message_id, created_at);
