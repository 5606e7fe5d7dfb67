-- What a character brought from a character card (or will carry into one): the card's description, its opening
-- message, and lorebook entries that are not people (a card from another front-end may describe places or
-- items), kept so the card exports again as it came. Characters built here leave them empty.
alter table characters add column card_description text;
alter table characters add column first_message text;
alter table characters add column card_lore jsonb;
