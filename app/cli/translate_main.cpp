// atento-translate: English text in, Spanish text out, one line per line.
#include "app/cli/cli.h"
#include "app/translate/translator.h"

int main(int argc, char** argv) {
  return atento::guarded_main([&] {
    CLI::App app{"Translate English text to Spanish with a trained Atento model.",
                 "atento-translate"};
    atento::TranslateArgs args;
    app.add_option("--model", args.model_dir, "Model directory written by atento-train")
        ->required()
        ->check(CLI::ExistingDirectory);
    app.add_option("--input", args.input,
                   "English text, translated line by line, sentence by sentence (default or -: "
                   "stdin)")
        ->check(CLI::Validator(
            [](std::string& path) { return path == "-" ? std::string() : CLI::ExistingFile(path); },
            "FILE or -"));
    app.add_option("--output", args.output, "Spanish output (default or -: stdout)");
    app.add_option("--beam", args.flags.beam, "Beam width (1 = greedy)")
        ->check(atento::integer_range(1, 256));
    app.add_option("--n-best", args.flags.n_best, "Print the N best as rank<TAB>score<TAB>text")
        ->check(atento::integer_range(1, 256));
    app.add_option("--batch-size", args.flags.batch_size,
                   "Decoder rows per batch (sentences x beam)")
        ->check(atento::integer_range(1, 1 << 20));
    app.add_flag("--no-cache", args.flags.no_cache, "Recompute the decoder prefix every step");
    app.add_flag("--no-split", args.flags.no_split,
                 "Translate each line as one source instead of sentence by sentence");
    app.add_option("--format", args.format,
                   "text (line by line) or html (the whole input as one HTML document: its "
                   "text translated, its markup kept)")
        ->check(CLI::IsMember({"text", "html"}));
    app.add_option("--window", args.window,
                   "Lines held in memory at once (default 2000); output order is input order")
        ->check(atento::integer_range(1, 1 << 24));
    app.add_option("--attention", args.attention_file,
                   "Write cross-attention weights (per layer and head) as JSON");
    app.add_option("--force-len", args.force_len,
                   "Decode exactly N tokens, ignoring [end] (benchmarks; at most the "
                   "model's max_len)")
        ->check(atento::integer_range(1));
    app.add_option("--device", args.flags.device, "cpu, cuda or cuda:N (default: translate.device)")
        ->check(atento::device_name());
    app.add_option("--threads", args.flags.threads, "CPU threads (0 = all cores)")
        ->check(atento::integer_range(0, 1024));
    app.add_option("--precision", args.flags.precision,
                   "Decoding arithmetic: fp32, bf16, int8 or auto (default: translate.precision)")
        ->check(atento::precision_name());
    app.add_option("--set", args.overrides, "Override a translate.* setting: translate.key=value");
    if (int code = atento::parse_command_line(app, argc, argv); code >= 0) return code;
    if (args.input == "-") args.input.clear();  // "-": stdin and stdout, as Unix tools read it
    if (args.output == "-") args.output.clear();
    return atento::run_translation(args);
  });
}
