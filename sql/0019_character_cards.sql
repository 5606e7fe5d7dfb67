-- What a character brought from a character card (or will carry into one): the card's description and its
-- opening message. Characters built here leave both empty and use the training data and the model's hello.
alter table characters add column card_description text;
alter table characters add column first_message text;
