package io.threadlab.api;

import java.util.ArrayList;
import java.util.List;

/**
 * THE query's rows folded into the page's articles as they are read: one row per article and comment, in the page's
 * order (newest article first, its comments by id), so an article ends where the next begins.
 */
final class ArticlePage {

    private final List<Article> articles = new ArrayList<>(ArticlePageQuery.PAGE_SIZE);
    private Article current;

    void add(ArticleRow row) {
        if (current == null || current.id() != row.articleId()) {
            current = new Article(row.articleId(), row.title(), row.body(), row.publishedAt(),
                    new Article.Author(row.authorId(), row.authorName(), row.authorEmail()), new ArrayList<>());
            articles.add(current);
        }
        if (row.commentId() != null) {
            current.comments().add(new Article.Comment(row.commentId(), row.commentAuthor(), row.commentBody(),
                    row.commentCreatedAt()));
        }
    }

    List<Article> articles() {
        return articles;
    }
}
