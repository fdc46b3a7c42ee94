package io.threadlab.api.orm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The page's entities as the JSON's records ({@code io.threadlab.api.Article}, which THE query's rows make too): the
 * same rows make the same JSON, whichever path read them.
 */
final class EntityPage {

    private EntityPage() {
    }

    /**
     * @param newestFirst the page's articles, in its order
     * @param comments    their comments, by article and oldest first within one
     */
    static List<io.threadlab.api.Article> of(List<Article> newestFirst, List<Comment> comments) {
        Map<Integer, List<io.threadlab.api.Article.Comment>> byArticle = new HashMap<>();
        for (Comment comment : comments) {
            byArticle.computeIfAbsent(comment.getArticle().getId(), id -> new ArrayList<>()).add(
                    new io.threadlab.api.Article.Comment(comment.getId(), comment.getAuthorName(), comment.getBody(),
                            comment.getCreatedAt()));
        }
        List<io.threadlab.api.Article> page = new ArrayList<>(newestFirst.size());
        for (Article article : newestFirst) {
            Author author = article.getAuthor();
            page.add(new io.threadlab.api.Article(article.getId(), article.getTitle(), article.getBody(),
                    article.getPublishedAt(),
                    new io.threadlab.api.Article.Author(author.getId(), author.getName(), author.getEmail()),
                    byArticle.getOrDefault(article.getId(), new ArrayList<>())));
        }
        return page;
    }
}
