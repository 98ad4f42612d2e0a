package dev.mnemo.eval;

import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;

/**
 * A TEST DOUBLE that answers like {@link SimpleHonestModel} but appends one user's polluted fact
 * and secret to every final answer given with the memory tools: what the grader must catch.
 */
final class LeakyModel extends SimpleHonestModel {

    private final ScenarioUser user;

    LeakyModel(ScenarioSet set) {
        super(set);
        this.user = set.users().get(0);
    }

    @Override
    public ModelResponse respond(ModelRequest request) {
        ModelResponse response = super.respond(request);
        boolean finalMemoryAnswer = response.toolCalls().isEmpty()
                && request.tools().stream().anyMatch(t -> t.name().equals("memories_search"));
        return finalMemoryAnswer ? ModelResponse.ofText(response.text() + "\nAlso: " + user.polluted().fact()
                + ", and your token is " + user.secret().value(), response.usage()) : response;
    }
}
