-- The lab's data set, in the shape of the published Spring MVC + JPA + MySQL comparison ("100 articles, each with
-- its comments, returned as JSON"): authors, their articles, the articles' comments. Made afresh on every load.
DROP TABLE IF EXISTS comments, articles, authors, lab_wait;

CREATE TABLE authors (
    id    integer PRIMARY KEY,
    name  text    NOT NULL,
    email text    NOT NULL
);

CREATE TABLE articles (
    id           integer     PRIMARY KEY,
    author_id    integer     NOT NULL REFERENCES authors (id),
    title        text        NOT NULL,
    body         text        NOT NULL,
    published_at timestamptz NOT NULL
);
-- The page query reads the newest articles first: an index scan that stops after the page.
CREATE INDEX articles_newest_first ON articles (published_at DESC, id DESC);

CREATE TABLE comments (
    id          integer     PRIMARY KEY,
    article_id  integer     NOT NULL REFERENCES articles (id),
    author_name text        NOT NULL,
    body        text        NOT NULL,
    created_at  timestamptz NOT NULL
);
CREATE INDEX comments_by_article ON comments (article_id, id);

-- How long the page query waits server-side, once per query, in ms: the database's counterpart of the delay
-- service's wait, set by the runner between windows (UPDATE lab_wait SET ms = ...). One row, always.
CREATE TABLE lab_wait (
    ms integer NOT NULL CHECK (ms BETWEEN 0 AND 60000)
);
CREATE UNIQUE INDEX lab_wait_one_row ON lab_wait ((true));
INSERT INTO lab_wait (ms) VALUES (0);
