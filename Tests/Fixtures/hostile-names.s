# A library whose symbol names hold HTML and non-ASCII text, to prove the
# HTML report shows them as literal text and runs none of them.
# Built by the browser test; hostile-names.rules.json makes every import a
# finding and the export a provided API.
    .text
    .globl "<script>document.title='pwned'</script>"
    .type "<script>document.title='pwned'</script>",@function
"<script>document.title='pwned'</script>":
    call "\"onmouseover=document.title='pwned' x=\""@PLT
    call "&amp;<b>bold</b>"@PLT
    call "Größe_名前_λ"@PLT
    ret
