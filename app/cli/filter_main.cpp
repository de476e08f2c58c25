// atento-filter: score English<TAB>Spanish pairs as translations (1) or noise (0).
#include "app/cli/cli.h"
#include "app/filter/pair_filter.h"

int main(int argc, char** argv) {
  return atento::guarded_main([&] {
    CLI::App app{"Score English-Spanish sentence pairs with a trained Atento pair filter.",
                 "atento-filter"};
    atento::FilterArgs args;
    double threshold = -1.0;
    app.add_option("--model", args.model_dir, "Filter model directory written by atento-train")
        ->required()
        ->check(CLI::ExistingDirectory);
    auto* input =
        app.add_option("--input", args.input, "English<TAB>Spanish lines (default: stdin)")
            ->check(CLI::ExistingFile);
    app.add_option("--output", args.output,
                   "score<TAB>English<TAB>Spanish lines (default: stdout)");
    auto* threshold_option =
        app.add_option("--threshold", threshold, "Print only the pairs scoring at least T")
            ->check(CLI::Range(0.0, 1.0));
    auto* evaluate = app.add_option("--evaluate", args.evaluate,
                                    "Report precision, recall, F1 and ROC-AUC on a labelled TSV "
                                    "(label<TAB>noise_type<TAB>English<TAB>Spanish)")
                         ->check(CLI::ExistingFile);
    app.add_option("--batch-size", args.batch_size, "Pairs per batch (0 = the model's setting)")
        ->check(atento::integer_range(0, 1 << 20));
    app.add_option("--threads", args.threads, "CPU threads (0 = all cores)")
        ->check(atento::integer_range(0, 1024));
    app.add_option("--device", args.device, "cpu, cuda or cuda:N (default: translate.device)")
        ->check(atento::device_name());
    auto* fit = app.add_flag("--fit-combination", args.fit_combination,
                             "Fit the score combination (the classifier's logit and the "
                             "translation model's cross-entropy) on the filter's validation "
                             "examples; writes combination.json into --model")
                    ->excludes(input)
                    ->excludes(evaluate)
                    ->excludes(threshold_option);
    app.add_option("--reverse-model", args.reverse_model,
                   "With --fit-combination: a Spanish-to-English model directory, for the "
                   "dual cross-entropy")
        ->check(CLI::ExistingDirectory)
        ->needs(fit);
    app.add_flag("--no-combination", args.no_combination,
                 "Score with the classifier alone, even when combination.json is there")
        ->excludes(fit);
    app.footer("Example: atento-filter --model runs/filter --input pairs.tsv --threshold 0.5");
    if (int code = atento::parse_command_line(app, argc, argv); code >= 0) return code;
    if (threshold_option->count() > 0) args.threshold = threshold;
    return atento::run_filter(args);
  });
}
