-- The lab's data, generated in SQL from its sizes alone, so that every load of the same sizes holds the same rows:
-- no random(), no now(); text from md5 of the row's numbers. The sizes are read from settings the loader sets first,
-- e.g. in psql: SET lab.authors = 100, then SET lab.articles = 1000, then SET lab.comments_per_article = 2
-- Authors take turns at the articles; article n is published at 2026-01-01 00:00 UTC plus n hours.

INSERT INTO authors (id, name, email)
SELECT i, 'Author ' || i, 'author' || i || '@lab.example'
FROM generate_series(1, current_setting('lab.authors')::int) AS i;

INSERT INTO articles (id, author_id, title, body, published_at)
SELECT i,
       1 + (i - 1) % current_setting('lab.authors')::int,
       'Article ' || i || ': ' || md5('title ' || i),
       (SELECT string_agg(md5('body ' || i || ' ' || k), ' ' ORDER BY k) FROM generate_series(1, 6) AS k),
       timestamptz '2026-01-01 00:00:00+00' + i * interval '1 hour'
FROM generate_series(1, current_setting('lab.articles')::int) AS i;

INSERT INTO comments (id, article_id, author_name, body, created_at)
SELECT (a - 1) * current_setting('lab.comments_per_article')::int + c,
       a,
       'Reader ' || (1 + (a * 7 + c) % 500),
       (SELECT string_agg(md5('comment ' || a || ' ' || c || ' ' || k), ' ' ORDER BY k) FROM generate_series(1, 3) AS k),
       timestamptz '2026-01-01 00:00:00+00' + a * interval '1 hour' + c * interval '1 minute'
FROM generate_series(1, current_setting('lab.articles')::int) AS a,
     generate_series(1, current_setting('lab.comments_per_article')::int) AS c;
