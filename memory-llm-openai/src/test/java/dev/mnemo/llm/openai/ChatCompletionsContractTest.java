package dev.mnemo.llm.openai;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.openai.OpenAiLanguageModel.Api;
import dev.mnemo.testkit.contract.LanguageModelContract;
import java.net.URI;
import java.time.Duration;

/** The published {@link LanguageModelContract} run against {@link OpenAiLanguageModel} on the Chat Completions API. */
class ChatCompletionsContractTest extends LanguageModelContract {

    @Override
    protected LanguageModel model(URI baseUrl, Duration requestTimeout) {
        return OpenAiLanguageModel.builder().baseUrl(baseUrl).apiKey("sk-test").model("gpt-test")
                .api(Api.CHAT_COMPLETIONS).requestTimeout(requestTimeout).maxRetries(0).build();
    }
}
