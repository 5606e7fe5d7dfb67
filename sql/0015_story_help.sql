-- A guide line of the onboarding story that answered a message about suicide or self-harm with help lines instead
-- of the next story question; it is shown as help and left out of what the model and the character prompt read.
alter table story_entries add column help boolean not null default false;
