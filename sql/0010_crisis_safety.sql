-- Crisis safety: where a person wants their help lines from, and the help block a reply led with.

-- An ISO 3166 country the person chose for help lines; null = from their browser's time zone, then language.
alter table users add column crisis_country text check (crisis_country ~ '^[A-Z]{2}$');

-- The help block (warm words and local lines) a reply opened with; the reply's text starts with it.
alter table messages add column help_text text;
