package io.threadlab.database;

/**
 * How much data the lab's database holds.
 *
 * @param articles           rows of {@code articles}
 * @param commentsPerArticle rows of {@code comments} per article
 * @param authors            rows of {@code authors}, who take turns at the articles
 */
public record DataSize(int articles, int commentsPerArticle, int authors) {

    /**
     * 1,000 articles, 2 comments each, 100 authors: the page the services return (100 articles) is a tenth of the
     * table, so the query must pick its page with the index rather than return everything; every author appears on
     * the page; the comparison this follows returned articles "each with its comment", and two comments per article
     * make the join one-to-many for real. About 1 MB in all: it loads in well under a second and always fits in
     * shared buffers, so no measured query waits for a disk.
     */
    public static DataSize defaults() {
        return new DataSize(1_000, 2, 100);
    }

    public DataSize {
        if (articles < 1 || articles > 10_000_000) {
            throw new IllegalArgumentException("articles must be 1 to 10000000, not " + articles);
        }
        if (commentsPerArticle < 0 || commentsPerArticle > 1_000) {
            throw new IllegalArgumentException("comments per article must be 0 to 1000, not " + commentsPerArticle);
        }
        if (authors < 1 || authors > 1_000_000) {
            throw new IllegalArgumentException("authors must be 1 to 1000000, not " + authors);
        }
        if ((long) articles * commentsPerArticle > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("articles x comments per article must fit an integer id");
        }
    }

    public long comments() {
        return (long) articles * commentsPerArticle;
    }
}
