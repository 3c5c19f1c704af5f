// A learner's CUDA text to running code: Clang parses it (in memory only), a collector reads
// the syntax tree, the IR is instrumented so every access goes through the kernel model, and
// the JIT links it. Index of this file (search for "[SECTION]"):
//  - What the syntax tree says: kernels, their parameters, __shared__ arrays
//  - The IR: every recorded access through the kernel model, and one entry per kernel
//  - The JIT: one per process, a JITDylib per compiled text
//  - Compiling a text: host code set aside, the compile, the result
#include "kernels/kernel_host/source_compiler.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Mangle.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Frontend/Utils.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/MultiplexConsumer.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>

#include "kernels/core/embedded_file.hpp"
#include "kernels/source/source_hooks.hpp"
#include "kernels/kernel_host/standard_headers.hpp"

namespace threadmap {
extern const EmbeddedFile kEmbeddedPrelude[];
extern const int kEmbeddedPreludeCount;
namespace {

constexpr const char* kPreludePath = "/threadmap/prelude.cuh";
// Headers shared with the host, or between cuda_fp16.h and cuda_bf16.h (two_byte_float.h), which
// the prelude and those include from here. The host's headers lie at their path in the
// repository under it, so that their own includes, written from the repository's root, find
// each other through -iquote.
constexpr const char* kSharedHeaderDir = "/threadmap";
constexpr const char* kSharedHeaders[] = {"kernels/model/loop_nest.hpp", "kernels/model/half_bits.hpp",
                                          "kernels/model/bfloat16_bits.hpp", "two_byte_float.h"};

// An embedded file by its base name (kernels/kernel_host/CMakeLists.txt lists them).
const char* embedded_text(const std::string& name) {
    for (int i = 0; i < kEmbeddedPreludeCount; ++i)
        if (name == kEmbeddedPrelude[i].name) return kEmbeddedPrelude[i].text;
    return "#error threadmap: a header is missing from its build\n";
}

// Where the standard headers lie (standard_headers.hpp); nothing else of the host is seen
// (-nostdsysteminc).
constexpr const char* kIncludeDir = "/threadmap/include";

// [SECTION] What the syntax tree says: kernels, their parameters, __shared__ arrays

bool annotated(const clang::Decl& d, llvm::StringRef what) {
    for (const auto* a : d.specific_attrs<clang::AnnotateAttr>())
        if (a->getAnnotation() == what) return true;
    return false;
}

struct FoundKernel {
    SourceKernel kernel;
    std::string mangled;
    const clang::FunctionTemplateDecl* pattern = nullptr;  // an instantiation's template
};
struct FoundShared {
    SourceSharedArray array;
    std::string mangled;
};

// A problem the compiler itself would not report (a double* parameter), at its place.
struct Refusal {
    clang::SourceLocation where;
    std::string message;
};

std::optional<ValueType> element_type(clang::QualType t) {
    // cuda_fp16.h's __half and cuda_bf16.h's __nv_bfloat16: classes of two bytes, as CUDA's
    // (kernels/kernel_host/cuda_fp16.h, cuda_bf16.h).
    if (const clang::RecordDecl* r = t.getCanonicalType()->getAsRecordDecl();
        r && r->getDeclContext()->isTranslationUnit()) {
        if (r->getName() == "__half") return ValueType::Float16;
        if (r->getName() == "__nv_bfloat16") return ValueType::BFloat16;
    }
    const auto* b = t.getCanonicalType()->getAs<clang::BuiltinType>();
    if (!b) return std::nullopt;
    switch (b->getKind()) {
        case clang::BuiltinType::Float:
            return ValueType::Float32;
        case clang::BuiltinType::Double:
            return ValueType::Float64;
        case clang::BuiltinType::Int:
            return ValueType::Int32;
        case clang::BuiltinType::UInt:
            return ValueType::UInt32;
        case clang::BuiltinType::Long:  // 8 bytes, on the GPU as on the 64-bit Linux host
        case clang::BuiltinType::LongLong:
            return ValueType::Int64;
        case clang::BuiltinType::ULong:
        case clang::BuiltinType::ULongLong:
            return ValueType::UInt64;
        case clang::BuiltinType::Char_S:  // plain char is signed, as nvcc's on x86-64
        case clang::BuiltinType::SChar:
            return ValueType::Int8;
        case clang::BuiltinType::Char_U:
        case clang::BuiltinType::UChar:
            return ValueType::UInt8;
        case clang::BuiltinType::Short:
            return ValueType::Int16;
        case clang::BuiltinType::UShort:
            return ValueType::UInt16;
        case clang::BuiltinType::Bool:
            return ValueType::Bool;
        default:
            return std::nullopt;
    }
}

// Why an array of another type is refused.
constexpr const char* kArrayTypes =
    "threadmap's arrays hold numbers: float, double, half (__half, cuda_fp16.h), bfloat16 (__nv_bfloat16, "
    "cuda_bf16.h), bool, and integers of 1, 2, 4 or 8 bytes (char, short, int, long long, signed or unsigned)";

class Collector : public clang::ASTConsumer, public clang::RecursiveASTVisitor<Collector> {
  public:
    std::vector<FoundKernel> kernels;
    std::vector<FoundShared> shared;
    std::vector<Refusal> refusals;
    std::vector<Refusal> warnings;
    struct FoundVariable {
        SourceVariable variable;
        std::string mangled;
    };
    std::vector<FoundVariable> variables;

    // Before code generation, which then emits nothing if a refusal was reported.
    void HandleTranslationUnit(clang::ASTContext& ctx) override {
        ctx_ = &ctx;
        names_ = std::make_unique<clang::ASTNameGenerator>(ctx);
        TraverseDecl(ctx.getTranslationUnitDecl());
        for (const clang::FunctionDecl* t : templates_)
            if (std::none_of(kernels.begin(), kernels.end(),
                             [&](const FoundKernel& k) { return k.pattern == t->getDescribedFunctionTemplate(); }))
                refusals.push_back({t->getLocation(), uninstantiated(*t)});
        clang::DiagnosticsEngine& d = ctx.getDiagnostics();
        for (const Refusal& r : refusals)
            d.Report(r.where, d.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0")) << r.message;
        for (const Refusal& r : warnings)
            d.Report(r.where, d.getCustomDiagID(clang::DiagnosticsEngine::Warning, "%0")) << r.message;
    }

    // A kernel template's instantiations are kernels of their own ("reduce<256>"), and their
    // __shared__ arrays (and those of template __device__ helpers) have their sizes.
    bool shouldVisitTemplateInstantiations() const { return true; }

    bool VisitFunctionDecl(clang::FunctionDecl* f) {
        if (!annotated(*f, "threadmap_global") || !f->doesThisDeclarationHaveABody()) return true;
        if (f->isTemplated()) {  // the template itself: its instantiations run
            if (f->getDescribedFunctionTemplate()) templates_.push_back(f);
            return true;
        }
        FoundKernel k;
        k.kernel.name = display_name(*f);
        k.kernel.line = int(ctx_->getSourceManager().getPresumedLineNumber(f->getLocation()));
        k.mangled = names_->getName(f);
        k.pattern = f->getPrimaryTemplate();
        for (const clang::ParmVarDecl* p : f->parameters()) {
            SourceParam s;
            s.name = p->getNameAsString();
            s.type_text = p->getType().getAsString(ctx_->getPrintingPolicy());
            const clang::QualType t = p->getType().getCanonicalType();
            if (s.name.empty()) {
                refusals.push_back({p->getLocation(), "give every parameter of a kernel a name: it is bound by name"});
            } else if (t->isPointerType()) {
                s.pointer = true;
                s.is_const = t->getPointeeType().isConstQualified();
                if (auto e = element_type(t->getPointeeType())) {
                    s.element = *e;
                } else {
                    refusals.push_back(
                        {p->getLocation(), "parameter '" + s.name + "' points to '" +
                                               p->getType()->getPointeeType().getAsString(ctx_->getPrintingPolicy()) +
                                               "': " + kArrayTypes});
                }
            } else if (auto sc = element_type(t)) {  // a number: the types an array may hold
                s.scalar = *sc;
            } else {
                refusals.push_back({p->getLocation(), "parameter '" + s.name + "' is a '" + s.type_text +
                                                          "': a kernel here takes pointers and numbers"});
            }
            k.kernel.params.push_back(std::move(s));
        }
        kernels.push_back(std::move(k));
        return true;
    }

    // Before code generation sees a function: its __shared__ arrays become static (one copy
    // for all threads; the kernel model keeps one per block), as if declared `static`.
    bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
        struct MakeStatic : clang::RecursiveASTVisitor<MakeStatic> {
            bool VisitVarDecl(clang::VarDecl* v) {
                if (annotated(*v, "threadmap_shared") && v->hasLocalStorage() && !llvm::isa<clang::ParmVarDecl>(v))
                    v->setStorageClass(clang::SC_Static);
                return true;
            }
        } make_static;
        for (clang::Decl* d : group) make_static.TraverseDecl(d);
        return true;
    }

    bool VisitVarDecl(clang::VarDecl* v) {
        if (annotated(*v, "threadmap_constant")) return variable(*v, true);
        if (!annotated(*v, "threadmap_shared") && device_variable(*v)) return variable(*v, false);
        // In a template: its instantiations' copies are the arrays.
        if (!annotated(*v, "threadmap_shared") || v->getDeclContext()->isDependentContext()) return true;
        const bool dynamic = v->hasExternalStorage() && v->isLocalExternDecl();
        if (!v->isStaticLocal() && !dynamic) {
            refusals.push_back(
                {v->getLocation(), "__shared__ declares an array inside a kernel or __device__ function"});
            return true;
        }
        FoundShared s;
        s.array.dynamic = dynamic;
        s.array.name = v->getNameAsString();
        s.array.line = int(ctx_->getSourceManager().getPresumedLineNumber(v->getLocation()));
        if (const auto* f = llvm::dyn_cast_or_null<clang::FunctionDecl>(v->getParentFunctionOrMethod()))
            s.array.function = display_name(*f);
        clang::QualType t = v->getType();
        std::vector<uint64_t> extents;
        if (dynamic) {
            const clang::IncompleteArrayType* a = ctx_->getAsIncompleteArrayType(t);
            if (!a) {
                refusals.push_back({v->getLocation(),
                                    "extern __shared__ declares an array of unknown size: "
                                    "extern __shared__ float " +
                                        s.array.name + "[];"});
                return true;
            }
            t = a->getElementType();
            extents.push_back(0);  // the launch's dynamic shared memory says how many
            if (ctx_->getAsArrayType(t)) {
                refusals.push_back({v->getLocation(),
                                    "extern __shared__ arrays here have one dimension: "
                                    "extern __shared__ float " +
                                        s.array.name + "[];"});
                return true;
            }
        }
        while (const clang::ConstantArrayType* a = ctx_->getAsConstantArrayType(t)) {
            extents.push_back(a->getSize().getZExtValue());
            t = a->getElementType();
        }
        if (auto e = element_type(t)) {
            s.array.element = *e;
        } else {
            refusals.push_back({v->getLocation(), "__shared__ '" + s.array.name + "' holds '" +
                                                      t.getAsString(ctx_->getPrintingPolicy()) + "': " + kArrayTypes});
            return true;
        }
        if (extents.empty()) extents.push_back(1);
        // A map shows one or two dimensions: [a][b][c] is drawn as a·b rows of c.
        while (extents.size() > 2) {
            extents[extents.size() - 3] *= extents[extents.size() - 2];
            extents.erase(extents.end() - 2);
        }
        s.array.shape = extents;
        s.mangled = names_->getName(v);
        shared.push_back(std::move(s));
        return true;
    }

  private:
    // A variable of the file that kernels use (SourceVariable): a __constant__ one, or a
    // __device__ one, which is any variable of numbers at the file's scope that is not const
    // (only device code runs here; a host program's variables are used by no kernel). Its
    // declaration's values are its first ones (on a GPU the host may fill it with
    // cudaMemcpyToSymbol, which a kernel here has no host to call: a binding does that).
    bool variable(const clang::VarDecl& v, bool constant) {
        const char* kind = constant ? "__constant__" : "__device__";
        if (!v.hasGlobalStorage() || v.isStaticLocal()) {
            refusals.push_back({v.getLocation(), std::string(kind) + " declares a variable outside every function"});
            return true;
        }
        if (const clang::Expr* init = v.getAnyInitializer(); init && !init->isConstantInitializer(*ctx_, false)) {
            // Its value would be computed at run time (a function's result): nvcc refuses that, and a
            // model that read 0 instead would show a wrong picture.
            refusals.push_back({v.getLocation(), std::string("dynamic initialization is not supported for ") + kind +
                                                     " variables (nvcc refuses it too): give '" + v.getNameAsString() +
                                                     "' constant values"});
            return true;
        }
        if (&v != v.getCanonicalDecl()) return true;  // declared again (extern, then defined): one variable
        FoundVariable c;
        c.variable.name = v.getNameAsString();
        c.variable.line = int(ctx_->getSourceManager().getPresumedLineNumber(v.getLocation()));
        c.variable.constant = constant;
        c.mangled = names_->getName(&v);
        clang::QualType t = v.getType();
        while (const clang::ConstantArrayType* a = ctx_->getAsConstantArrayType(t)) {
            c.variable.elements *= a->getSize().getZExtValue();
            t = a->getElementType();
        }
        if (auto e = element_type(t)) {
            c.variable.element = *e;
        } else {
            refusals.push_back({v.getLocation(), std::string(kind) + " '" + c.variable.name + "' holds '" +
                                                     t.getAsString(ctx_->getPrintingPolicy()) + "': " + kArrayTypes});
            return true;
        }
        variables.push_back(std::move(c));
        if (constant && !v.hasInit() && !v.hasExternalStorage())
            warnings.push_back(
                {v.getLocation(), "__constant__ '" + v.getNameAsString() +
                                      "' has no initializer: it holds zeros unless bound, where on a GPU the host "
                                      "fills it (cudaMemcpyToSymbol); give its values where it is declared, "
                                      "__constant__ float w[3] = {0.25f, 0.5f, 0.25f};, or bind them, --bind "
                                      "w=float[3]:0.25,0.5,0.25"});
        return true;
    }

    // A __device__ variable (see variable): of the learner's file, at its scope, not const, of
    // numbers. Others (a pointer, a struct) stay plain memory, their accesses not recorded.
    bool device_variable(const clang::VarDecl& v) const {
        if (!v.hasGlobalStorage() || v.isStaticLocal() || v.isStaticDataMember() || v.isConstexpr() ||
            !v.getDeclContext()->getRedeclContext()->isFileContext() || v.getDeclContext()->isDependentContext() ||
            !ctx_->getSourceManager().isInMainFile(v.getLocation()))
            return false;
        clang::QualType t = v.getType();
        while (const clang::ConstantArrayType* a = ctx_->getAsConstantArrayType(t)) t = a->getElementType();
        return !t.isConstQualified() && element_type(t).has_value();
    }

    // "increment", or with its template arguments "reduce<256>".
    std::string display_name(const clang::FunctionDecl& f) const {
        std::string name = f.getNameAsString();
        const clang::TemplateArgumentList* arguments = f.getTemplateSpecializationArgs();
        if (!arguments) return name;
        llvm::raw_string_ostream out(name);
        out << '<';
        for (unsigned i = 0; i < arguments->size(); ++i) {
            if (i) out << ", ";
            arguments->get(i).print(ctx_->getPrintingPolicy(), out, /*IncludeType=*/false);  // 256, not 256U
        }
        out << '>';
        return out.str();
    }

    // What a kernel template needs before it can run: an explicit instantiation, as a
    // program's launch `reduce<256><<<…>>>` would make.
    std::string uninstantiated(const clang::FunctionDecl& f) const {
        const clang::FunctionTemplateDecl* t = f.getDescribedFunctionTemplate();
        std::string arguments, parameters;
        for (const clang::NamedDecl* p : *t->getTemplateParameters())
            arguments += (arguments.empty() ? "" : ", ") + p->getNameAsString();
        for (const clang::ParmVarDecl* p : f.parameters())
            parameters += (parameters.empty() ? "" : ", ") + p->getType().getAsString(ctx_->getPrintingPolicy());
        return "kernel template " + f.getNameAsString() +
               " runs once instantiated for its template arguments: add, after it, `template __global__ void " +
               f.getNameAsString() + "<" + arguments + ">(" + parameters + ");` with a value for each of " + arguments;
    }

    clang::ASTContext* ctx_ = nullptr;
    std::unique_ptr<clang::ASTNameGenerator> names_;
    std::vector<const clang::FunctionDecl*> templates_;  // kernel templates (their patterns)
};

// Emits LLVM IR, and lets the collector see the syntax tree on the way.
class CompileAction : public clang::EmitLLVMOnlyAction {
  public:
    CompileAction(llvm::LLVMContext* ctx, Collector* collector) : EmitLLVMOnlyAction(ctx), collector_(collector) {}

  protected:
    std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef file) override {
        std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
        consumers.push_back(std::make_unique<ForwardingConsumer>(*collector_));
        consumers.push_back(EmitLLVMOnlyAction::CreateASTConsumer(ci, file));
        return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
    }

  private:
    struct ForwardingConsumer : clang::ASTConsumer {
        explicit ForwardingConsumer(Collector& c) : c_(c) {}
        bool HandleTopLevelDecl(clang::DeclGroupRef group) override { return c_.HandleTopLevelDecl(group); }
        void HandleTranslationUnit(clang::ASTContext& ctx) override { c_.HandleTranslationUnit(ctx); }
        Collector& c_;
    };
    Collector* collector_;
};

// Clang's printed text, and each message with its place.
class DiagnosticCollector : public clang::TextDiagnosticPrinter {
  public:
    DiagnosticCollector(llvm::raw_string_ostream& out, clang::DiagnosticOptions* options)
        : TextDiagnosticPrinter(out, options), out_(out) {}
    std::vector<SourceDiagnostic> diagnostics;

    void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
        const size_t before = out_.str().size();
        TextDiagnosticPrinter::HandleDiagnostic(level, info);
        out_.flush();
        const std::string printed = out_.str().substr(before);
        if (level == clang::DiagnosticsEngine::Note || level == clang::DiagnosticsEngine::Remark) {
            if (!diagnostics.empty()) diagnostics.back().text += printed;
            return;
        }
        SourceDiagnostic d;
        d.error = level >= clang::DiagnosticsEngine::Error;
        llvm::SmallString<256> message;
        info.FormatDiagnostic(message);
        d.message = message.str().str();
        d.text = printed;
        if (info.hasSourceManager() && info.getLocation().isValid()) {
            const clang::PresumedLoc p = info.getSourceManager().getPresumedLoc(info.getLocation());
            if (p.isValid()) {
                d.file = p.getFilename();
                d.line = int(p.getLine());
                d.column = int(p.getColumn());
            }
        }
        diagnostics.push_back(std::move(d));
    }

  private:
    llvm::raw_string_ostream& out_;
};

// [SECTION] The IR: every recorded access through the kernel model, and one entry per kernel

class Instrumenter {
  public:
    explicit Instrumenter(llvm::Module& m) : m_(m) {
        llvm::LLVMContext& c = m.getContext();
        ptr_ = llvm::PointerType::get(c, 0);
        i32_ = llvm::Type::getInt32Ty(c);
        i64_ = llvm::Type::getInt64Ty(c);
        void_ = llvm::Type::getVoidTy(c);
        load4_ = m.getOrInsertFunction("__threadmap_load4", i32_, ptr_, i32_);
        store4_ = m.getOrInsertFunction("__threadmap_store4", void_, ptr_, i32_, i32_);
        load_ = m.getOrInsertFunction("__threadmap_load", void_, ptr_, ptr_, i64_, i32_);
        store_ = m.getOrInsertFunction("__threadmap_store", void_, ptr_, ptr_, i64_, i32_);
        memcpy_ = m.getOrInsertFunction("__threadmap_memcpy", void_, ptr_, ptr_, i64_, i32_);
        memset_ = m.getOrInsertFunction("__threadmap_memset", void_, ptr_, i32_, i64_, i32_);
        loop_enter_ = m.getOrInsertFunction("__threadmap_loop_enter", i32_, i32_);
        loop_next_ = m.getOrInsertFunction("__threadmap_loop_next", void_);
        loop_exit_ = m.getOrInsertFunction("__threadmap_loop_exit", void_, i32_);
        loop_depth_ = m.getOrInsertFunction("__threadmap_loop_depth", i32_);
    }

    // The first line with inline assembly (which could make system calls of its own and
    // which this JIT cannot assemble), or 0; -1 for assembly outside any function.
    int inline_assembly() const {
        if (!m_.getModuleInlineAsm().empty()) return -1;
        for (const llvm::Function& f : m_)
            for (const llvm::BasicBlock& b : f)
                for (const llvm::Instruction& i : b)
                    if (const auto* c = llvm::dyn_cast<llvm::CallBase>(&i); c && c->isInlineAsm())
                        return i.getDebugLoc() ? int(i.getDebugLoc()->getLine()) : -1;
        return 0;
    }

    // The first line that writes a __constant__ variable (`constants`: their names) directly: a
    // store, a memset or memcpy into it, an atomic on it; or 0.
    int constant_write(const std::set<std::string>& constants) const {
        const auto into_constant = [&](const llvm::Value* address) {
            const auto* g = llvm::dyn_cast<llvm::GlobalVariable>(llvm::getUnderlyingObject(address, 0));
            return g && constants.count(g->getName().str());
        };
        for (const llvm::Function& f : m_)
            for (const llvm::BasicBlock& b : f)
                for (const llvm::Instruction& i : b) {
                    std::vector<const llvm::Value*> targets;
                    if (const auto* st = llvm::dyn_cast<llvm::StoreInst>(&i)) {
                        targets.push_back(st->getPointerOperand());
                    } else if (const auto* mi = llvm::dyn_cast<llvm::MemIntrinsic>(&i)) {
                        targets.push_back(mi->getRawDest());
                    } else if (const auto* c = llvm::dyn_cast<llvm::CallBase>(&i)) {
                        // The prelude's atomics (__threadmap_atomicAdd, …, not yet inlined): their address.
                        const llvm::Function* f = c->getCalledFunction();
                        if (f &&
                            (f->getName().contains("__threadmap_atomic") || f->getName().contains("__threadmap_cas")))
                            for (const llvm::Value* a : c->args())
                                if (a->getType()->isPointerTy()) targets.push_back(a);
                    }
                    for (const llvm::Value* target : targets)
                        if (into_constant(target)) return i.getDebugLoc() ? int(i.getDebugLoc()->getLine()) : -1;
                }
        return 0;
    }

    void run() {
        for (llvm::Function& f : m_) {
            // The prelude's loop marks (__threadmap_loop_enter, __threadmap_loop_nest::next, …)
            // keep the thread's place in its loops, not the learner's data.
            if (f.isDeclaration() || f.getName().contains("__threadmap_loop_")) continue;
            std::vector<llvm::Instruction*> work;
            for (llvm::BasicBlock& b : f)
                for (llvm::Instruction& i : b)
                    if (llvm::isa<llvm::LoadInst, llvm::StoreInst, llvm::MemIntrinsic>(i)) work.push_back(&i);
            for (llvm::Instruction* i : work) rewrite(f, *i);
        }
    }

    // Before each instruction that may fault with no hook called at its line (an integer
    // division or remainder, a trap, unreachable code, a call through a pointer), its line is
    // written where a crash report reads it (__threadmap_line): "the last line it reached" is
    // then the crash's. After run(): the marks are plain stores, not recorded accesses.
    void mark_fault_lines() {
        llvm::GlobalVariable* line = m_.getNamedGlobal("__threadmap_line");
        if (!line)
            line = new llvm::GlobalVariable(m_, ptr_, false, llvm::GlobalValue::ExternalLinkage, nullptr,
                                            "__threadmap_line");
        for (llvm::Function& f : m_) {
            if (f.isDeclaration()) continue;
            std::vector<llvm::Instruction*> work;
            for (llvm::BasicBlock& b : f)
                for (llvm::Instruction& i : b)
                    if (may_fault(i) && i.getDebugLoc()) work.push_back(&i);
            for (llvm::Instruction* i : work) {
                llvm::IRBuilder<> b(i);
                b.CreateStore(line_of(*i), b.CreateLoad(ptr_, line), /*isVolatile=*/true);
            }
        }
    }
    static bool may_fault(const llvm::Instruction& i) {
        if (const auto* op = llvm::dyn_cast<llvm::BinaryOperator>(&i))
            return op->getOpcode() == llvm::Instruction::SDiv || op->getOpcode() == llvm::Instruction::UDiv ||
                   op->getOpcode() == llvm::Instruction::SRem || op->getOpcode() == llvm::Instruction::URem;
        if (const auto* call = llvm::dyn_cast<llvm::CallBase>(&i)) {
            const llvm::Function* f = call->getCalledFunction();
            return !f || f->getIntrinsicID() == llvm::Intrinsic::trap ||
                   f->getIntrinsicID() == llvm::Intrinsic::debugtrap ||
                   f->getIntrinsicID() == llvm::Intrinsic::ubsantrap;
        }
        return llvm::isa<llvm::UnreachableInst>(i);
    }

    // Each loop around a recorded access (in the loop or in a function it calls) tells the
    // kernel model when it is entered, each iteration and when it is left (by its exit, a break
    // or a return), so that the memory view can group a warp's accesses by iteration
    // (ModelThread::loop_enter). After run(): the accesses are the hooks' calls by then.
    void mark_loops() {
        const std::set<const llvm::Function*> accessing = functions_accessing();
        uint32_t next_loop = 0;
        for (llvm::Function& f : m_) {
            if (f.isDeclaration()) continue;
            llvm::DominatorTree dominators(f);
            llvm::LoopInfo loops(dominators);
            std::vector<llvm::Loop*> marked;
            for (llvm::Loop* top : loops)
                if (accesses(*top, accessing)) marked.push_back(top);
            if (marked.empty()) continue;
            // A preheader (the one way in) and exits only the loop leads to, for the calls.
            for (llvm::Loop* top : marked)
                llvm::simplifyLoop(top, &dominators, &loops, nullptr, nullptr, nullptr, false);
            // Each block that leaves loops: the outermost one it leaves, and the depth it was entered at.
            std::map<llvm::BasicBlock*, std::pair<llvm::Loop*, llvm::Value*>> exits;
            for (llvm::Loop* top : marked)
                for (llvm::Loop* loop : top->getLoopsInPreorder()) {
                    llvm::BasicBlock* preheader = loop->getLoopPreheader();
                    if (!preheader || !accesses(*loop, accessing)) continue;
                    llvm::Value* depth = llvm::IRBuilder<>(preheader->getTerminator())
                                             .CreateCall(loop_enter_, {llvm::ConstantInt::get(i32_, next_loop++)});
                    llvm::IRBuilder<>(&*loop->getHeader()->getFirstInsertionPt()).CreateCall(loop_next_);
                    llvm::SmallVector<llvm::BasicBlock*, 4> leaving;
                    loop->getExitBlocks(leaving);
                    for (llvm::BasicBlock* b : leaving) {
                        const auto [at, fresh] = exits.try_emplace(b, loop, depth);
                        if (!fresh && loop->contains(at->second.first)) at->second = {loop, depth};
                    }
                }
            for (const auto& [block, left] : exits)
                llvm::IRBuilder<>(&*block->getFirstInsertionPt()).CreateCall(loop_exit_, {left.second});
            // A return from within loops leaves them too.
            llvm::Value* depth = llvm::IRBuilder<>(&*f.getEntryBlock().getFirstInsertionPt()).CreateCall(loop_depth_);
            for (llvm::BasicBlock& b : f)
                if (llvm::isa<llvm::ReturnInst>(b.getTerminator()))
                    llvm::IRBuilder<>(b.getTerminator()).CreateCall(loop_exit_, {depth});
        }
    }

  private:
    // The functions that make recorded accesses, themselves or through the functions they call.
    std::set<const llvm::Function*> functions_accessing() const {
        std::set<const llvm::Function*> out;
        for (llvm::FunctionCallee hook : {load4_, store4_, load_, store_, memcpy_, memset_})
            out.insert(llvm::cast<llvm::Function>(hook.getCallee()));
        for (bool grew = true; grew;) {
            grew = false;
            for (const llvm::Function& f : m_)
                if (!out.count(&f) &&
                    std::any_of(f.begin(), f.end(), [&](const llvm::BasicBlock& b) { return calls_any(b, out); }))
                    grew = out.insert(&f).second;
        }
        return out;
    }
    static bool calls_any(const llvm::BasicBlock& b, const std::set<const llvm::Function*>& functions) {
        for (const llvm::Instruction& i : b)
            if (const auto* c = llvm::dyn_cast<llvm::CallBase>(&i))
                if (functions.count(c->getCalledFunction())) return true;
        return false;
    }
    static bool accesses(const llvm::Loop& loop, const std::set<const llvm::Function*>& accessing) {
        return std::any_of(loop.block_begin(), loop.block_end(),
                           [&](const llvm::BasicBlock* b) { return calls_any(*b, accessing); });
    }

    // Loads and stores of a thread's own locals and of plain globals (the thread's indices,
    // a __device__ variable) stay as they are; those through a pointer (an array, a __shared__
    // array at its slot, or memory the model does not know) go through the hooks.
    bool recorded(const llvm::Value* address) const {
        const llvm::Value* o = llvm::getUnderlyingObject(address, 0);
        return !llvm::isa<llvm::AllocaInst>(o) && !llvm::isa<llvm::GlobalVariable>(o);
    }

    llvm::Value* line_of(const llvm::Instruction& i) {
        const llvm::DebugLoc& d = i.getDebugLoc();
        return llvm::ConstantInt::get(i32_, d ? d->getLine() : 0);
    }

    llvm::AllocaInst* scratch(llvm::Function& f, llvm::Type* t) {
        llvm::IRBuilder<> b(&*f.getEntryBlock().getFirstInsertionPt());
        return b.CreateAlloca(t);
    }

    void rewrite(llvm::Function& f, llvm::Instruction& i) {
        const llvm::DataLayout& dl = m_.getDataLayout();
        llvm::IRBuilder<> b(&i);
        if (auto* ld = llvm::dyn_cast<llvm::LoadInst>(&i)) {
            if (!recorded(ld->getPointerOperand())) return;
            llvm::Type* t = ld->getType();
            llvm::Value* v = nullptr;
            if (dl.getTypeStoreSize(t) == 4 && (t->isIntegerTy(32) || t->isFloatTy())) {
                v = b.CreateBitCast(b.CreateCall(load4_, {ld->getPointerOperand(), line_of(i)}), t);
            } else {
                llvm::AllocaInst* tmp = scratch(f, t);
                b.CreateCall(load_, {ld->getPointerOperand(), tmp, llvm::ConstantInt::get(i64_, dl.getTypeStoreSize(t)),
                                     line_of(i)});
                v = b.CreateLoad(t, tmp);
            }
            ld->replaceAllUsesWith(v);
            ld->eraseFromParent();
        } else if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i)) {
            if (!recorded(st->getPointerOperand())) return;
            llvm::Value* v = st->getValueOperand();
            llvm::Type* t = v->getType();
            if (dl.getTypeStoreSize(t) == 4 && (t->isIntegerTy(32) || t->isFloatTy())) {
                b.CreateCall(store4_, {st->getPointerOperand(), b.CreateBitCast(v, i32_), line_of(i)});
            } else {
                llvm::AllocaInst* tmp = scratch(f, t);
                b.CreateStore(v, tmp);
                b.CreateCall(store_, {st->getPointerOperand(), tmp,
                                      llvm::ConstantInt::get(i64_, dl.getTypeStoreSize(t)), line_of(i)});
            }
            st->eraseFromParent();
        } else if (auto* mt = llvm::dyn_cast<llvm::MemTransferInst>(&i)) {
            if (!recorded(mt->getRawDest()) && !recorded(mt->getRawSource())) return;
            b.CreateCall(memcpy_, {mt->getRawDest(), mt->getRawSource(), b.CreateZExtOrTrunc(mt->getLength(), i64_),
                                   line_of(i)});
            mt->eraseFromParent();
        } else if (auto* ms = llvm::dyn_cast<llvm::MemSetInst>(&i)) {
            if (!recorded(ms->getRawDest())) return;
            b.CreateCall(memset_, {ms->getRawDest(), b.CreateZExt(ms->getValue(), i32_),
                                   b.CreateZExtOrTrunc(ms->getLength(), i64_), line_of(i)});
            ms->eraseFromParent();
        }
    }

    llvm::Module& m_;
    llvm::Type *ptr_, *i32_, *i64_, *void_;
    llvm::FunctionCallee load4_, store4_, load_, store_, memcpy_, memset_;
    llvm::FunctionCallee loop_enter_, loop_next_, loop_exit_, loop_depth_;
};

// The functions whose code uses a value (through constant expressions too).
std::set<const llvm::Function*> functions_using(const llvm::Value& v) {
    std::set<const llvm::Function*> out;
    std::vector<const llvm::User*> work(v.user_begin(), v.user_end());
    while (!work.empty()) {
        const llvm::User* u = work.back();
        work.pop_back();
        if (const auto* i = llvm::dyn_cast<llvm::Instruction>(u))
            out.insert(i->getFunction());
        else if (llvm::isa<llvm::Constant>(u))
            work.insert(work.end(), u->user_begin(), u->user_end());
    }
    return out;
}

// The functions a kernel runs: its own and every one it calls, directly or not.
std::set<const llvm::Function*> reached_from(const llvm::Function& kernel) {
    std::set<const llvm::Function*> reached{&kernel};
    std::vector<const llvm::Function*> work{&kernel};
    while (!work.empty()) {
        const llvm::Function* f = work.back();
        work.pop_back();
        for (const llvm::BasicBlock& b : *f)
            for (const llvm::Instruction& i : b)
                if (const auto* c = llvm::dyn_cast<llvm::CallBase>(&i))
                    if (const llvm::Function* callee = c->getCalledFunction(); callee && reached.insert(callee).second)
                        work.push_back(callee);
    }
    return reached;
}

bool any_reached(const std::set<const llvm::Function*>& users, const std::set<const llvm::Function*>& reached) {
    return std::any_of(users.begin(), users.end(), [&](const llvm::Function* f) { return reached.count(f); });
}

// Every use of a global (a __shared__ or __constant__ array) becomes its slot's address; the
// functions that used it.
std::set<const llvm::Function*> move_to_slot(llvm::GlobalVariable& g, size_t slot) {
    std::set<const llvm::Function*> users = functions_using(g);
    g.replaceAllUsesWith(llvm::ConstantExpr::getIntToPtr(
        llvm::ConstantInt::get(llvm::Type::getInt64Ty(g.getContext()), source_hooks::slot_address(slot)), g.getType()));
    return users;
}

// A kernel's __shared__ arrays: those of the functions it runs (a template helper's copy for
// each instantiation it calls; none of another kernel's). Two of one name are told apart by
// their function: "sum<float, 64>::s".
std::vector<SourceSharedArray> shared_arrays_of(const std::set<const llvm::Function*>& reached,
                                                const std::vector<FoundShared>& shared,
                                                const std::vector<std::set<const llvm::Function*>>& users) {
    std::vector<SourceSharedArray> out;
    for (size_t s = 0; s < shared.size(); ++s)
        if (any_reached(users[s], reached)) out.push_back(shared[s].array);
    std::vector<std::string> names;
    for (const SourceSharedArray& a : out) {
        const auto same = [&](const SourceSharedArray& b) { return b.name == a.name; };
        names.push_back(std::count_if(out.begin(), out.end(), same) > 1 ? a.function + "::" + a.name : a.name);
    }
    for (size_t i = 0; i < out.size(); ++i) out[i].name = names[i];
    return out;
}

// void __threadmap_entry_N(void** args): loads each argument from where args[i] points and
// calls the kernel (what cudaLaunchKernel does with its args array).
std::string add_entry(llvm::Module& m, llvm::Function& kernel, size_t n) {
    llvm::LLVMContext& c = m.getContext();
    llvm::Type* ptr = llvm::PointerType::get(c, 0);
    const std::string name = "__threadmap_entry_" + std::to_string(n);
    auto* entry = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(c), {ptr}, false),
                                         llvm::GlobalValue::ExternalLinkage, name, m);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", entry));
    std::vector<llvm::Value*> args;
    for (unsigned i = 0; i < kernel.arg_size(); ++i) {
        llvm::Value* slot = b.CreateLoad(ptr, b.CreateConstGEP1_64(ptr, entry->getArg(0), i));
        args.push_back(b.CreateLoad(kernel.getArg(i)->getType(), slot));
    }
    b.CreateCall(&kernel, args);
    b.CreateRetVoid();
    return name;
}

void optimise(llvm::Module& m) {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb;
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cam, mam);
    pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2).run(m, mam);
}

// The first function the code calls that neither the file defines nor the JIT links
// (source_hooks::symbols: the hooks, libm, the C library's memory functions), as C++ names it,
// and the line of its first call (0: none known). A link error would name the module's symbols.
std::optional<std::pair<std::string, int>> undefined_function(const llvm::Module& m) {
    std::set<std::string> linked;
    for (const source_hooks::Symbol& s : source_hooks::symbols()) linked.insert(s.name);
    for (const llvm::Function& f : m) {
        if (!f.isDeclaration() || f.isIntrinsic() || f.use_empty() || linked.count(f.getName().str())) continue;
        int line = 0;
        for (const llvm::User* u : f.users())
            if (const auto* call = llvm::dyn_cast<llvm::Instruction>(u); call && call->getDebugLoc()) {
                const int l = int(call->getDebugLoc()->getLine());
                if (line == 0 || l < line) line = l;
            }
        return std::make_pair(llvm::demangle(f.getName().str()), line);
    }
    return std::nullopt;
}

// [SECTION] The JIT: one per process, a JITDylib per compiled text

llvm::orc::LLJIT* jit() {
    static llvm::orc::LLJIT* instance = [] {
        llvm::InitializeNativeTarget();
        llvm::InitializeNativeTargetAsmPrinter();
        auto j = llvm::orc::LLJITBuilder().create();
        if (!j) {
            llvm::consumeError(j.takeError());
            return static_cast<llvm::orc::LLJIT*>(nullptr);
        }
        // A missing symbol is reported to the learner by compile_source, not on stderr.
        (*j)->getExecutionSession().setErrorReporter([](llvm::Error e) { llvm::consumeError(std::move(e)); });
        return j->release();  // lives as long as the process: compiled kernels may outlive main's locals
    }();
    return instance;
}
std::recursive_mutex g_jit_mutex;  // compiles take turns; a failed one drops its code within

std::string error_text(llvm::Error e) {
    std::string s;
    llvm::raw_string_ostream out(s);
    out << e;
    return out.str();
}

}  // namespace

const char* source_prelude() { return embedded_text("prelude.cuh"); }

namespace {

// [SECTION] Compiling a text: host code set aside, the compile, the result
// One compile of a text; `learners_text`: the one to keep and show (`text` with its host
// functions' bodies blanked, or `text` itself).
SourceCompile compile_text(const std::string& text, const std::string& learners_text, const std::string& file_name);

// A CUDA program as a course hands it out: its kernels, and host code (main() with its
// cudaMalloc, cudaMemcpy and <<<…>>> launch) that threadmap does not run — the launch and the
// arrays are given to it instead. The text with the bodies of its host functions (top-level
// function definitions marked neither __global__ nor __device__) blanked, line for line (so
// every line and column stays where it was); `host` gets their names and `first_line` the
// first one's line. Raw tokens: comments, strings and preprocessor lines are skipped whole.
std::string without_host_bodies(const std::string& text, std::vector<std::string>& host, int& first_line) {
    clang::LangOptions lang;
    lang.CPlusPlus = lang.CPlusPlus11 = lang.CPlusPlus14 = lang.CPlusPlus17 = true;
    clang::Lexer lexer(clang::SourceLocation(), lang, text.data(), text.data(), text.data() + text.size());
    std::string out = text;
    int depth = 0, parens = 0;
    bool device = false, parameters = false, directive = false;
    std::string name, last_identifier;
    clang::tok::TokenKind previous = clang::tok::unknown;
    size_t body = std::string::npos;  // a host body's first byte, while in one
    clang::Token t;
    do {
        lexer.LexFromRawLexer(t);
        if (t.isAtStartOfLine()) directive = t.is(clang::tok::hash);
        if (directive || t.is(clang::tok::eof)) continue;
        const size_t at = size_t(t.getLocation().getRawEncoding() - clang::SourceLocation().getRawEncoding());
        if (t.is(clang::tok::l_brace)) {
            if (depth++ == 0 && parameters && !device && previous != clang::tok::equal) {
                body = at + 1;
                host.push_back(name + "()");
                if (first_line == 0) first_line = 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
            }
        } else if (t.is(clang::tok::r_brace)) {
            if (--depth == 0) {
                if (body != std::string::npos)
                    for (size_t i = body; i < at; ++i)
                        if (out[i] != '\n') out[i] = ' ';
                body = std::string::npos;
                device = parameters = false;
                name.clear();
            }
            depth = std::max(depth, 0);
        } else if (depth == 0) {
            if (t.is(clang::tok::raw_identifier)) {
                const llvm::StringRef word = t.getRawIdentifier();
                if (word == "__global__" || word == "__device__") device = true;
                last_identifier = word.str();
            } else if (t.is(clang::tok::l_paren)) {
                if (parens++ == 0 && name.empty()) name = last_identifier;
            } else if (t.is(clang::tok::r_paren)) {
                if (--parens == 0) parameters = true;
            } else if (t.is(clang::tok::semi)) {
                device = parameters = false;
                name.clear();
            }
        }
        if (depth == 0 || t.is(clang::tok::l_brace)) previous = t.getKind();
    } while (t.isNot(clang::tok::eof));
    return out;
}

}  // namespace

SourceCompile compile_source(const std::string& text, const std::string& file_name) {
    std::lock_guard lock(g_jit_mutex);
    SourceCompile out = compile_text(text, text, file_name);
    if (out.source) return out;
    // A whole program: its kernels without its host code, if that compiles (a text that
    // compiles as written is never changed).
    std::vector<std::string> host;
    int line = 0;
    const std::string kernels_only = without_host_bodies(text, host, line);
    if (host.empty()) return out;
    SourceCompile retry = compile_text(kernels_only, text, file_name);
    if (!retry.source) return out;
    std::string names;
    for (const std::string& h : host) names += (names.empty() ? "" : ", ") + h;
    const std::string message = "host code not run: " + names +
                                ": threadmap runs the file's kernels with the launch and the arrays you give "
                                "(--grid, --block, --bind; the Editor's fields), not its host program";
    retry.text = file_name + ":" + std::to_string(line) + ": warning: " + message + "\n" + retry.text;
    retry.diagnostics.insert(retry.diagnostics.begin(), SourceDiagnostic{file_name, line, 0, false, message, ""});
    retry.milliseconds += out.milliseconds;
    return retry;
}

namespace {

// An error at a line of the learner's file (0: the file as a whole), in the compile's printed
// text and in its diagnostics (the Editor marks the line).
void refuse(SourceCompile& out, const std::string& file_name, int line, const std::string& message) {
    out.text += file_name + (line > 0 ? ":" + std::to_string(line) : "") + ": error: " + message + "\n";
    out.diagnostics.push_back({file_name, std::max(line, 0), 0, true, message, ""});
}

// Clang's module of one text and the context it lives in (the JIT takes both).
struct ClangModule {
    std::unique_ptr<llvm::LLVMContext> context;
    std::unique_ptr<llvm::Module> module;
};

// The only files Clang sees: the text, the prelude and threadmap's headers, in memory. An
// #include of anything else (a path of the host, a FIFO, stdin) is "file not found", and
// __has_include answers no for every path of the host.
llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> files_clang_sees(const std::string& text,
                                                                         const std::string& file_name) {
    llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> files(new llvm::vfs::InMemoryFileSystem);
    files->setCurrentWorkingDirectory("/");
    const auto add = [&](const std::string& path, const char* contents) {
        files->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(contents, path));
    };
    files->addFile(file_name, 0, llvm::MemoryBuffer::getMemBufferCopy(text, file_name));
    add(kPreludePath, source_prelude());
    for (const std::string path : kSharedHeaders)
        add(std::string(kSharedHeaderDir) + "/" + path, embedded_text(path.substr(path.rfind('/') + 1)));
    for (const StandardHeader& h : standard_headers())
        add(std::string(kIncludeDir) + "/" + h.name, h.embedded ? embedded_text(h.embedded) : h.text);
    return files;
}

// Clang, in this process, on the text in memory: the module, and in `found` what the text
// declares (kernels, __shared__ arrays, variables); none when it does not compile.
std::optional<ClangModule> run_clang(const std::string& text, bool host_blanked, const std::string& file_name,
                                     Collector& found, SourceCompile& out) {
    llvm::raw_string_ostream printed(out.text);
    llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options = new clang::DiagnosticOptions();
    options->ShowColors = false;
    DiagnosticCollector diagnostics(printed, options.get());
    clang::CompilerInstance ci;
    ci.createDiagnostics(&diagnostics, /*ShouldOwnClient=*/false);
    const std::string triple = llvm::sys::getProcessTriple();
    std::vector<const char*> args = {
        "-triple", triple.c_str(), "-x", "c++", "-std=c++17", "-O2", "-disable-llvm-passes",
        "-debug-info-kind=line-tables-only", "-fexceptions", "-fcxx-exceptions", "-funwind-tables=2", "-fno-rtti",
        "-ffp-contract=off",  // as the built-in bodies: no fused multiply-adds
        // C++'s forward-progress rule would let Clang delete `while (1) {}`;
        // on a GPU (NVRTC keeps the loop) it spins until stopped: so here
        "-fno-finite-loops",
        // printf's arguments against its format: a mismatch prints garbage
        // on a GPU, and here %s of a number would crash the kernel's process
        "-Werror=format", "-ferror-limit", "20", "-nostdsysteminc", "-nobuiltininc", "-iquote", kSharedHeaderDir,
        "-isystem", kIncludeDir, "-include", kPreludePath, file_name.c_str()};
    // Host functions' blanked bodies return nothing: not the learner's mistake to warn about.
    if (host_blanked) args.insert(args.begin(), "-Wno-return-type");
    auto invocation = std::make_shared<clang::CompilerInvocation>();
    if (!clang::CompilerInvocation::CreateFromArgs(*invocation, args, ci.getDiagnostics())) {
        out.text += "threadmap: Clang did not accept its own options\n";
        return std::nullopt;
    }
    ci.createFileManager(files_clang_sees(text, file_name));
    // The engine was made before the options were read: their -W flags apply from here.
    clang::ProcessWarningOptions(ci.getDiagnostics(), invocation->getDiagnosticOpts());
    ci.setInvocation(std::move(invocation));
    ci.setVerboseOutputStream(printed);  // "1 error generated."

    ClangModule result{std::make_unique<llvm::LLVMContext>(), nullptr};
    CompileAction action(result.context.get(), &found);
    const bool parsed = ci.ExecuteAction(action);
    printed.flush();
    out.diagnostics = diagnostics.diagnostics;
    result.module = action.takeModule();
    if (!parsed || !found.refusals.empty() || !result.module || ci.getDiagnostics().hasErrorOccurred())
        return std::nullopt;
    if (found.kernels.empty()) {
        refuse(out, file_name, 0, "no __global__ kernel in the file");
        return std::nullopt;
    }
    return result;
}

// Each __shared__ array lives at its slot's address (never memory: every access to it goes
// through the hooks, which keep one copy per block), so that an index past its end is its
// own, reported out of bounds, not the next array's element. Returns the functions using each
// array; none when the file has more arrays than there are slots.
std::optional<std::vector<std::set<const llvm::Function*>>> place_shared_arrays(llvm::Module& module, Collector& found,
                                                                                const std::string& file_name,
                                                                                SourceCompile& out) {
    if (found.shared.size() > source_hooks::kMaxSharedArrays) {
        refuse(out, file_name, 0,
               "threadmap runs at most " + std::to_string(source_hooks::kMaxSharedArrays) +
                   " __shared__ arrays in one file");
        return std::nullopt;
    }
    std::vector<std::set<const llvm::Function*>> users(found.shared.size());
    for (size_t s = 0; s < found.shared.size(); ++s) {
        llvm::GlobalVariable* g = module.getNamedGlobal(found.shared[s].mangled);
        if (!g) continue;  // never used: not emitted
        found.shared[s].array.slot = source_hooks::shared_slot(s);
        users[s] = move_to_slot(*g, found.shared[s].array.slot);
        g->eraseFromParent();
    }
    return users;
}

// Each variable a kernel uses lives at its slot's address too, its accesses recorded; the
// variable itself stays (unused, kept by its linkage) for its declaration's values. One that
// only host code uses (a program's main()) stays plain memory and takes no slot. False when
// the kernels use more variables than there are slots.
bool place_variables(llvm::Module& module, Collector& found,
                     const std::vector<std::set<const llvm::Function*>>& kernel_reaches, const std::string& file_name,
                     SourceCompile& out) {
    size_t slots_taken = 0;
    for (size_t c = 0; c < found.variables.size(); ++c) {
        llvm::GlobalVariable* g = module.getNamedGlobal(found.variables[c].mangled);
        if (!g) continue;  // never used: not emitted
        const std::set<const llvm::Function*> users = functions_using(*g);
        bool used_by_kernel = false;
        for (size_t k = 0; k < found.kernels.size(); ++k)
            if (any_reached(users, kernel_reaches[k])) {
                found.kernels[k].kernel.variables.push_back(c);
                used_by_kernel = true;
            }
        if (!used_by_kernel) continue;
        if (slots_taken == source_hooks::kMaxVariables) {
            refuse(out, file_name, 0,
                   "threadmap runs at most " + std::to_string(source_hooks::kMaxVariables) +
                       " __constant__ and __device__ variables used by the kernels of one file");
            return false;
        }
        found.variables[c].variable.slot = source_hooks::variable_slot(slots_taken++);
        move_to_slot(*g, found.variables[c].variable.slot);
        g->setLinkage(llvm::GlobalValue::ExternalLinkage);
    }
    return true;
}

// The entry of each kernel (the name the JIT looks up), the __shared__ arrays it reaches, and
// which hooks the file calls at all (the run picks fibers for barriers and warps by them).
struct KernelEntries {
    std::vector<std::string> names;
    std::vector<std::vector<SourceSharedArray>> shared;
    bool barriers = false;
    bool warp_ops = false;
    bool atomics = false;
};

std::optional<KernelEntries> add_kernel_entries(llvm::Module& module, const Collector& found,
                                                const std::vector<std::set<const llvm::Function*>>& kernel_reaches,
                                                const std::vector<std::set<const llvm::Function*>>& shared_users,
                                                const std::string& file_name, SourceCompile& out) {
    KernelEntries entries;
    entries.shared.resize(found.kernels.size());
    for (size_t k = 0; k < found.kernels.size(); ++k) {
        llvm::Function* f = module.getFunction(found.kernels[k].mangled);
        if (!f || f->arg_size() != found.kernels[k].kernel.params.size()) {
            refuse(out, file_name, 0,
                   "threadmap could not find kernel " + found.kernels[k].kernel.name + " in Clang's output");
            return std::nullopt;
        }
        entries.shared[k] = shared_arrays_of(kernel_reaches[k], found.shared, shared_users);
        entries.names.push_back(add_entry(module, *f, k));
    }
    const auto used = [&](const char* hook) {
        const llvm::Function* f = module.getFunction(hook);
        return f && !f->use_empty();
    };
    entries.barriers = used("__threadmap_syncthreads") || used("__threadmap_syncthreads_count");
    entries.warp_ops = used("__threadmap_warp");
    entries.atomics = used("__threadmap_atomic");
    return entries;
}

// The module in a JIT library of its own that sees the hooks and the allowed functions only;
// the library goes when the last holder of `compiled` lets go. None when the JIT refuses it.
llvm::orc::JITDylib* add_to_jit(ClangModule clang_module, CompiledSource& compiled, SourceCompile& out) {
    llvm::orc::LLJIT& j = *jit();
    static size_t compiles = 0;
    llvm::orc::JITDylib& library = j.getExecutionSession().createBareJITDylib("source-" + std::to_string(++compiles));
    compiled.code = std::shared_ptr<const void>(&library, [](const void* l) {
        std::lock_guard lock(g_jit_mutex);
        llvm::consumeError(jit()->getExecutionSession().removeJITDylib(
            *const_cast<llvm::orc::JITDylib*>(static_cast<const llvm::orc::JITDylib*>(l))));
    });
    llvm::orc::SymbolMap symbols;
    for (const source_hooks::Symbol& s : source_hooks::symbols())
        symbols[j.mangleAndIntern(s.name)] =
            llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(s.address), llvm::JITSymbolFlags::Exported);
    if (auto e = library.define(llvm::orc::absoluteSymbols(std::move(symbols)))) {
        out.text += "threadmap: " + error_text(std::move(e)) + "\n";
        return nullptr;
    }
    if (auto e = j.addIRModule(
            library, llvm::orc::ThreadSafeModule(std::move(clang_module.module), std::move(clang_module.context)))) {
        out.text += "threadmap: " + error_text(std::move(e)) + "\n";
        return nullptr;
    }
    return &library;
}

// Each kernel's entry point and each variable's initial bytes, looked up in the compiled
// library. False when a kernel calls a function the file does not define.
bool look_up_compiled(llvm::orc::JITDylib& library, const Collector& found, KernelEntries entries,
                      CompiledSource& compiled, const std::string& file_name, SourceCompile& out) {
    llvm::orc::LLJIT& j = *jit();
    for (size_t k = 0; k < found.kernels.size(); ++k) {
        auto address = j.lookup(library, entries.names[k]);
        if (!address) {
            // An undefined function: one of the host's (system, fopen, printf) or a typo.
            std::string why = error_text(address.takeError());
            out.text += file_name + ": error: the kernel calls a function that is not defined in the file (" + why +
                        "): a kernel can call its own __device__ functions and CUDA's math functions, nothing of "
                        "the host\n";
            out.diagnostics.push_back(
                {file_name, 0, 0, true, "the kernel calls a function not defined here: " + why, ""});
            return false;
        }
        SourceKernel kernel = found.kernels[k].kernel;
        kernel.entry = address->toPtr<SourceEntry>();
        kernel.uses_barriers = entries.barriers;
        kernel.uses_warp_ops = entries.warp_ops;
        kernel.uses_atomics = entries.atomics;
        kernel.shared = std::move(entries.shared[k]);
        compiled.kernels.push_back(std::move(kernel));
    }
    for (const Collector::FoundVariable& c : found.variables) {
        SourceVariable variable = c.variable;
        const size_t bytes = variable.elements * value_bytes(variable.element);
        if (auto address = j.lookup(library, c.mangled)) {
            const auto* at = address->toPtr<const unsigned char*>();
            variable.initial.assign(at, at + bytes);
        } else {
            llvm::consumeError(address.takeError());  // never used, or declared extern: zeros
            variable.initial.assign(bytes, 0);
        }
        compiled.variables.push_back(std::move(variable));
    }
    return true;
}

SourceCompile compile_text(const std::string& text, const std::string& learners_text, const std::string& file_name) {
    const auto start = std::chrono::steady_clock::now();
    SourceCompile out;
    if (!jit()) {
        out.text = "threadmap: LLVM's JIT could not start on this machine\n";
        return out;
    }
    Collector found;
    std::optional<ClangModule> clang_module = run_clang(text, text != learners_text, file_name, found, out);
    if (!clang_module) return out;
    llvm::Module& module = *clang_module->module;
    const auto shared_users = place_shared_arrays(module, found, file_name, out);
    if (!shared_users) return out;
    Instrumenter instrumenter(module);
    std::set<std::string> constant_names;
    for (const Collector::FoundVariable& c : found.variables)
        if (c.variable.constant) constant_names.insert(c.mangled);
    if (const int line = instrumenter.constant_write(constant_names)) {
        refuse(out, file_name, line,
               "a kernel only reads __constant__ memory: the host writes it (cudaMemcpyToSymbol), and a GPU's "
               "constant cache has no way back");
        return out;
    }
    std::vector<std::set<const llvm::Function*>> kernel_reaches(found.kernels.size());
    for (size_t k = 0; k < found.kernels.size(); ++k)
        if (const llvm::Function* f = module.getFunction(found.kernels[k].mangled))
            kernel_reaches[k] = reached_from(*f);
    if (!place_variables(module, found, kernel_reaches, file_name, out)) return out;
    if (const int line = instrumenter.inline_assembly()) {
        refuse(out, file_name, line, "inline assembly is not part of the CUDA C++ threadmap runs");
        return out;
    }
    instrumenter.run();
    instrumenter.mark_fault_lines();
    instrumenter.mark_loops();
    std::optional<KernelEntries> entries =
        add_kernel_entries(module, found, kernel_reaches, *shared_users, file_name, out);
    if (!entries) return out;
    optimise(module);
    if (const auto missing = undefined_function(module)) {
        refuse(out, file_name, missing->second,
               "'" + missing->first +
                   "' is called but not defined in the file: a kernel can call its own __device__ functions and "
                   "CUDA's math functions, nothing of the host");
        return out;
    }
    auto compiled = std::make_shared<CompiledSource>();
    compiled->file_name = file_name;
    compiled->text = learners_text;  // what the Code tab shows
    llvm::orc::JITDylib* library = add_to_jit(std::move(*clang_module), *compiled, out);
    if (!library || !look_up_compiled(*library, found, std::move(*entries), *compiled, file_name, out)) return out;
    out.source = compiled;
    out.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return out;
}

}  // namespace

}  // namespace threadmap
