-- THE query of the services that read the lab's database: the newest page of articles, each with its author and
-- its comments, in one statement and one round trip. Parameter 1: the page size (the lab uses 100).
-- It first waits lab_wait.ms server-side, exactly once per query: the CTE wait is evaluated once (MATERIALIZED, and
-- read only by an uncorrelated EXISTS, which PostgreSQL runs once, before any row, as an InitPlan). Checked with
-- EXPLAIN ANALYZE: the wait scan shows loops=1 (lab-database/README.md).
-- One row per article and comment (an article without comments: one row, comment columns null), newest first.
-- Every service sends this file byte for byte; see lab-database/README.md.
WITH wait AS MATERIALIZED (
    SELECT pg_sleep(ms / 1000.0) FROM lab_wait
),
page AS (
    SELECT id, author_id, title, body, published_at
    FROM articles
    ORDER BY published_at DESC, id DESC
    LIMIT $1
)
SELECT page.id           AS article_id,
       page.title        AS title,
       page.body         AS body,
       page.published_at AS published_at,
       authors.id        AS author_id,
       authors.name      AS author_name,
       authors.email     AS author_email,
       comments.id          AS comment_id,
       comments.author_name AS comment_author,
       comments.body        AS comment_body,
       comments.created_at  AS comment_created_at
FROM page
JOIN authors ON authors.id = page.author_id
LEFT JOIN comments ON comments.article_id = page.id
WHERE EXISTS (SELECT FROM wait)
ORDER BY page.published_at DESC, page.id DESC, comments.id
