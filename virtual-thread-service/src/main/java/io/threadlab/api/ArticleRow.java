package io.threadlab.api;

import java.time.Instant;

/**
 * One row of THE query, by its column names: an article with its author and one of its comments (the comment's
 * columns null for an article without comments). Each database client reads its rows into these, so that the same
 * rows make the same articles whichever client read them.
 */
record ArticleRow(int articleId, String title, String body, Instant publishedAt, int authorId, String authorName,
                  String authorEmail, Integer commentId, String commentAuthor, String commentBody,
                  Instant commentCreatedAt) {
}
