// atento-release: a lean, self-describing copy of a trained model for others to use.
#include <iostream>

#include "app/cli/cli.h"
#include "app/model_dir/release.h"

int main(int argc, char** argv) {
  return atento::guarded_main([&] {
    CLI::App app{"Write a release of a trained model: config, tokenizers, best weights "
                 "(safetensors), MODEL.md and SHA256SUMS.",
                 "atento-release"};
    atento::ReleaseArgs args;
    app.add_option("--model", args.model_dir, "Model directory written by atento-train")
        ->required()
        ->check(CLI::ExistingDirectory);
    app.add_option("--out", args.out, "Release directory to create (new, or empty)")->required();
    app.add_option("--metrics", args.metrics_file,
                   "atento-eval --json output on the test split, quoted in MODEL.md")
        ->check(CLI::ExistingFile);
    if (int code = atento::parse_command_line(app, argc, argv); code >= 0) return code;
    atento::write_release(args);
    std::cerr << "atento-release: wrote " << args.out << " (check: cd " << args.out
              << " && sha256sum -c SHA256SUMS)\n";
    return 0;
  });
}
