// atento-eval: next-word accuracy, loss, BLEU and chrF of a trained model.
#include "app/cli/cli.h"
#include "app/eval/evaluator.h"

int main(int argc, char** argv) {
  return atento::guarded_main([&] {
    CLI::App app{"Evaluate a trained Atento model on English<TAB>Spanish pairs.", "atento-eval"};
    atento::EvalArgs args;
    app.add_option("--model", args.model_dir, "Model directory written by atento-train")
        ->required()
        ->check(CLI::ExistingDirectory);
    app.add_option("--pairs", args.pairs, "Evaluation pairs (TSV)")->required();
    app.add_flag("--json", args.json, "Print one JSON object instead of a table");
    app.add_option("--beam", args.beam, "Beam width for BLEU/chrF (1 = greedy)")
        ->check(atento::integer_range(1, 256));
    app.add_option("--batch-size", args.batch_size,
                   "Decoder rows per batch when translating (sentences x beam)")
        ->check(atento::integer_range(1, 1 << 20));
    app.add_option("--hyps", args.hyps_out, "Also write the translations to this file");
    app.add_option("--translations", args.translations,
                   "Score these translations (one per distinct source, as --hyps writes) "
                   "instead of the model's")
        ->check(CLI::ExistingFile);
    app.add_flag("--no-split", args.no_split,
                 "Translate each source whole instead of sentence by sentence");
    app.add_flag("--no-translate", args.no_translate,
                 "Only the teacher-forced figures (skip BLEU/chrF)");
    app.add_option("--device", args.device, "cpu, cuda or cuda:N (default: translate.device)")
        ->check(atento::device_name());
    app.add_option("--threads", args.threads, "CPU threads (0 = all cores)")
        ->check(atento::integer_range(0, 1024));
    app.add_option("--set", args.overrides, "Override a translate.* setting: translate.key=value");
    if (int code = atento::parse_command_line(app, argc, argv); code >= 0) return code;
    return atento::run_evaluation(args);
  });
}
