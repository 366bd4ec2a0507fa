theory Main imports Pure begin
end
